//! The board settings form: the toolbar's Settings panel on the game page and the account
//! page's "Board" section, filled from the viewer's preferences (a visitor's browser keeps its
//! own and fills the panel itself).

use crate::usecases::preferences::{BOARD_THEMES, PIECE_SETS, Preferences};

/// One choice of a select box.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub value: String,
    pub label: String,
    pub selected: bool,
}

/// The settings form as drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingsForm {
    /// Stored on the server (logged in) rather than in the browser.
    pub saved: bool,
    /// Where the form goes back to after a save without JavaScript.
    pub back: String,
    pub themes: Vec<Choice>,
    pub piece_sets: Vec<Choice>,
    pub speeds: Vec<Choice>,
    pub prefs: Preferences,
}

fn choices(values: &[&str], current: &str, label: impl Fn(&str) -> String) -> Vec<Choice> {
    values
        .iter()
        .map(|v| Choice {
            value: (*v).to_string(),
            label: label(v),
            selected: *v == current,
        })
        .collect()
}

/// Capitalised, dashes as spaces: `high-contrast` → `High contrast`.
fn label(value: &str) -> String {
    let words = value.replace('-', " ");
    let mut chars = words.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// The form for `prefs`; `saved` for a logged-in user, `back` the page to return to.
pub fn settings_form(prefs: &Preferences, saved: bool, back: String) -> SettingsForm {
    let speed = prefs.animation_ms.to_string();
    let mut speeds = choices(&["0", "300", "700", "1400"], &speed, |v| {
        match v {
            "0" => "no animation",
            "300" => "fast",
            "700" => "normal",
            _ => "slow",
        }
        .to_string()
    });
    if !speeds.iter().any(|c| c.selected) {
        // A speed set through the API that the list does not name is kept as it is.
        speeds.push(Choice {
            value: speed.clone(),
            label: format!("{speed} ms a move"),
            selected: true,
        });
    }
    SettingsForm {
        saved,
        back,
        themes: choices(BOARD_THEMES, &prefs.board_theme, label),
        piece_sets: choices(PIECE_SETS, &prefs.piece_set, label),
        speeds,
        prefs: prefs.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_form_marks_the_current_choices() {
        let prefs = Preferences {
            board_theme: "high-contrast".into(),
            animation_ms: 1234,
            ..Preferences::default()
        };
        let form = settings_form(&prefs, true, "/games/1".into());
        let theme = form.themes.iter().find(|c| c.selected).unwrap();
        assert_eq!(
            (theme.value.as_str(), theme.label.as_str()),
            ("high-contrast", "High contrast")
        );
        assert_eq!(form.piece_sets.iter().filter(|c| c.selected).count(), 1);
        assert!(form.speeds.iter().any(|c| c.selected && c.value == "1234"));
    }
}
