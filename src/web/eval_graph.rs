//! The evaluation graph of an engine analysis as inline SVG: White's chance of winning after
//! every ply (the light area is White's share), the moves judged mistakes and blunders marked,
//! the ply shown marked, and every ply a link to that position. Pure: given the points, it
//! writes markup.

use std::fmt::Write;

use slowfuse_engine::Judgement;

/// One ply of the graph.
pub struct GraphPoint {
    pub ply: u32,
    /// White's chance of winning, from −1 to 1 (`slowfuse_engine::winning_chances`).
    pub chances: f64,
    /// What the point's link says ("12. Nf3 +0.40").
    pub label: String,
    pub judgement: Option<Judgement>,
}

const WIDTH: f64 = 600.0;
const HEIGHT: f64 = 120.0;

/// The graph of `points` (in ply order) with `shown` marked; empty markup for no points.
pub fn eval_graph(points: &[GraphPoint], shown: u32) -> String {
    let Some(last) = points.last() else {
        return String::new();
    };
    let span = f64::from(last.ply.max(1));
    let x = |ply: u32| f64::from(ply) * WIDTH / span;
    let y = |chances: f64| HEIGHT * (1.0 - (chances.clamp(-1.0, 1.0) + 1.0) / 2.0);
    let mut svg = String::with_capacity(400 + points.len() * 160);
    let _ = write!(
        svg,
        r#"<svg class="eval-graph" viewBox="0 0 {WIDTH} {HEIGHT}" preserveAspectRatio="none" role="group" aria-labelledby="eval-graph-title"><title id="eval-graph-title">Evaluation after every move: the light area is White's chance of winning, the dark Black's. Each move is a link to its position.</title><rect class="graph-black" x="0" y="0" width="{WIDTH}" height="{HEIGHT}"/>"#
    );
    let mut area = format!("M0 {HEIGHT}");
    for p in points {
        let _ = write!(area, " L{:.1} {:.1}", x(p.ply), y(p.chances));
    }
    let _ = write!(area, " L{:.1} {HEIGHT} Z", x(last.ply));
    let _ = write!(svg, r#"<path class="graph-white" d="{area}"/>"#);
    let half = HEIGHT / 2.0;
    let _ = write!(
        svg,
        r#"<line class="graph-middle" x1="0" y1="{half}" x2="{WIDTH}" y2="{half}"/>"#
    );
    if shown <= last.ply {
        let sx = x(shown);
        let _ = write!(
            svg,
            r#"<line class="graph-shown" x1="{sx:.1}" y1="0" x2="{sx:.1}" y2="{HEIGHT}"/>"#
        );
    }
    for p in points {
        if let Some(j) = p.judgement.filter(|j| *j >= Judgement::Mistake) {
            let _ = write!(
                svg,
                r#"<circle class="graph-{}" cx="{:.1}" cy="{:.1}" r="3"/>"#,
                j.as_str(),
                x(p.ply),
                y(p.chances)
            );
        }
    }
    // A strip per ply, the whole height, as the link to its position.
    let strip = WIDTH / span;
    for p in points {
        let left = (x(p.ply) - strip / 2.0).max(0.0);
        let _ = write!(
            svg,
            r##"<a href="?ply={ply}#panel-engine" data-ply="{ply}" data-x="{px:.1}" aria-label="{label}"><title>{label}</title><rect class="graph-hit" x="{left:.1}" y="0" width="{strip:.1}" height="{HEIGHT}"/></a>"##,
            ply = p.ply,
            px = x(p.ply),
            label = escape_text(&p.label),
        );
    }
    svg.push_str("</svg>");
    svg
}

/// Text made safe inside an attribute or element.
fn escape_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(ply: u32, chances: f64, judgement: Option<Judgement>) -> GraphPoint {
        GraphPoint {
            ply,
            chances,
            label: format!("ply {ply} <b>"),
            judgement,
        }
    }

    #[test]
    fn every_ply_is_a_link_and_labels_are_escaped() {
        let svg = eval_graph(
            &[
                point(0, 0.0, None),
                point(1, 0.5, None),
                point(2, -1.0, None),
            ],
            1,
        );
        for ply in 0..=2 {
            assert!(svg.contains(&format!(r##"href="?ply={ply}#panel-engine""##)));
        }
        // A picture (role img) may hold no focusable links: the graph is a group of them.
        assert!(svg.contains(r#"role="group""#) && !svg.contains(r#"role="img""#));
        assert!(svg.contains("ply 1 &lt;b&gt;"));
        assert!(!svg.contains("<b>"));
        assert!(svg.contains(r#"class="graph-shown" x1="300.0""#));
    }

    #[test]
    fn blunders_and_mistakes_are_marked_inaccuracies_not() {
        let svg = eval_graph(
            &[
                point(0, 0.0, None),
                point(1, -0.6, Some(Judgement::Blunder)),
                point(2, -0.6, Some(Judgement::Inaccuracy)),
                point(3, 0.0, Some(Judgement::Mistake)),
            ],
            0,
        );
        assert_eq!(svg.matches("graph-blunder").count(), 1);
        assert_eq!(svg.matches("graph-mistake").count(), 1);
        assert!(!svg.contains("graph-inaccuracy"));
    }

    #[test]
    fn the_white_area_follows_the_chances() {
        // White winning outright: the light area reaches the top.
        let svg = eval_graph(&[point(0, 1.0, None), point(1, 1.0, None)], 0);
        assert!(svg.contains("M0 120 L0.0 0.0 L600.0 0.0 L600.0 120 Z"));
        assert_eq!(eval_graph(&[], 0), "");
    }
}
