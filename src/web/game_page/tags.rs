//! The tag box: only ever the viewer's own tags on the game, and a refused tag edit.

use super::viewer::Viewer;
use super::{Refusal, Typed};

/// What the game page's tag box shows: only ever the viewer's own tags.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TagBox {
    /// Nothing is shown to a visitor who is not logged in.
    pub logged_in: bool,
    pub tags: Vec<String>,
    /// Why the last tag edit was refused.
    pub error: Option<String>,
    /// The tag as typed, kept after a refusal.
    pub typed: String,
}

/// The tag box of `viewer`, whose tags on the game are `tags`.
pub fn tag_box(viewer: &Viewer, tags: &[String], refusal: Option<&Refusal>) -> TagBox {
    if viewer.id.is_none() {
        return TagBox::default();
    }
    let refused = refusal.and_then(|r| match &r.typed {
        Typed::Tag(typed) => Some((r.message.clone(), typed.clone())),
        _ => None,
    });
    let (error, typed) = refused.map_or((None, String::new()), |(e, t)| (Some(e), t));
    TagBox {
        logged_in: true,
        tags: tags.to_vec(),
        error,
        typed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::http::StatusCode;

    #[test]
    fn visitors_get_no_box_and_a_refused_tag_stays_typed() {
        let tags = ["opening".to_string()];
        assert_eq!(tag_box(&Viewer::default(), &tags, None), TagBox::default());
        let me = Viewer {
            id: Some(7),
            ..Viewer::default()
        };
        let refusal = Refusal::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "no",
            Typed::Tag("a b".into()),
        );
        let refused = tag_box(&me, &tags, Some(&refusal));
        assert_eq!(refused.error.as_deref(), Some("no"));
        assert_eq!((refused.typed.as_str(), refused.tags.len()), ("a b", 1));
        let other = Refusal::new(refusal.status, "too long", Typed::Kibitz("k".into()));
        assert_eq!(tag_box(&me, &tags, Some(&other)).error, None);
    }
}
