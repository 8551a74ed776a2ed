//! The game page's material balance: each side's pieces (on the board, and in hand in
//! crazyhouse), the pieces one side has more of, and the difference in the usual points
//! (pawn 1, knight 3, bishop 3, rook 5, queen 9).

use slowfuse_rules::{BoardArray, Color, Pockets, Role};

/// The roles that count, most valuable first (as the surplus is listed).
const ROLES: [Role; 5] = [
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::Pawn,
];

fn points(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    }
}

fn symbol(role: Role) -> char {
    match role {
        Role::Queen => '♕',
        Role::Rook => '♖',
        Role::Bishop => '♗',
        Role::Knight => '♘',
        Role::Pawn => '♙',
        Role::King => '♔',
    }
}

/// One line for the page, e.g. `Material: White +3 (♖ against ♘ ♙)` or `Material: even`.
pub fn material_line(board: &BoardArray, pockets: Option<&Pockets>) -> String {
    let count = |color: Color, role: Role| -> i32 {
        let on_board = board.iter().filter(|p| **p == Some((color, role))).count();
        let in_hand = pockets.map_or(0, |p| match color {
            Color::White => p.white.count(role),
            Color::Black => p.black.count(role),
        });
        i32::try_from(on_board).unwrap_or(i32::MAX) + i32::from(in_hand)
    };
    let surplus = |color: Color| -> Vec<String> {
        ROLES
            .iter()
            .filter_map(|&role| {
                let more = count(color, role) - count(!color, role);
                (more > 0).then(|| {
                    let times = usize::try_from(more).unwrap_or(0);
                    std::iter::repeat_n(symbol(role).to_string(), times).collect::<String>()
                })
            })
            .collect()
    };
    let score = |color: Color| -> i32 { ROLES.iter().map(|&r| count(color, r) * points(r)).sum() };
    let difference = score(Color::White) - score(Color::Black);
    let (white, black) = (surplus(Color::White), surplus(Color::Black));
    let leader = match difference {
        0 => "even".to_string(),
        d if d > 0 => format!("White +{d}"),
        d => format!("Black +{}", -d),
    };
    let pieces = |extra: &[String]| {
        if extra.is_empty() {
            "nothing".to_string()
        } else {
            extra.join(" ")
        }
    };
    if white.is_empty() && black.is_empty() {
        format!("Material: {leader}")
    } else {
        format!(
            "Material: {leader} (White has {} more, Black {})",
            pieces(&white),
            pieces(&black)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use slowfuse_rules::{Game, Variant};

    fn line(variant: Variant, fen: &str) -> String {
        let game = Game::from_fen(variant, fen).unwrap();
        material_line(&game.board_at(0).unwrap(), game.pockets_at(0).as_ref())
    }

    #[test]
    fn balance_in_points_and_pieces() {
        assert_eq!(
            line(Variant::Standard, slowfuse_rules::STANDARD_START_FEN),
            "Material: even"
        );
        assert_eq!(
            line(Variant::Standard, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"),
            "Material: White +5 (White has ♖ more, Black nothing)"
        );
        // A rook against a knight and a pawn: +1.
        assert_eq!(
            line(Variant::Standard, "1n2k3/p7/8/8/8/8/8/R3K3 w - - 0 1"),
            "Material: White +1 (White has ♖ more, Black ♘ ♙)"
        );
        // A bishop against a knight counts even, but the pieces differ.
        assert_eq!(
            line(Variant::Standard, "1n2k3/8/8/8/8/8/8/2B1K3 w - - 0 1"),
            "Material: even (White has ♗ more, Black ♘)"
        );
        assert_eq!(
            line(Variant::Standard, "3qk3/8/8/8/8/8/8/4K3 b - - 0 1"),
            "Material: Black +9 (White has nothing more, Black ♕)"
        );
    }

    #[test]
    fn pieces_in_hand_count_in_crazyhouse() {
        assert_eq!(
            line(Variant::Crazyhouse, "4k3/8/8/8/8/8/8/4K3[NPP] w - - 0 1"),
            "Material: White +5 (White has ♘ ♙♙ more, Black nothing)"
        );
    }
}
