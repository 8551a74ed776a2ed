//! Seats: which board and which colour a player plays. A two-player game has one board
//! (board 0); a bughouse match seats four players on boards 0 (a) and 1 (b).

use slowfuse_rules::Color;
use slowfuse_rules::bughouse;

/// One seat at a game: a board and a colour on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Seat {
    /// 0 for board a (the only board outside bughouse), 1 for board b.
    pub board: i32,
    /// The colour played on that board.
    pub color: Color,
}

impl Seat {
    /// The seat of `color` on the first (or only) board.
    pub fn first_board(color: Color) -> Seat {
        Seat { board: 0, color }
    }

    /// The opponent's seat on the same board.
    pub fn opponent(self) -> Seat {
        Seat {
            board: self.board,
            color: !self.color,
        }
    }

    /// The side of the game's result this seat plays for: its colour on board a (the only
    /// board outside bughouse); on board b of a match the other colour, since team A (the
    /// result's White: `1-0` is a win for A) sits White on board a and Black on board b.
    pub fn side(self) -> Color {
        if self.board == 1 {
            !self.color
        } else {
            self.color
        }
    }

    /// The stored name of the seat's colour.
    pub fn color_name(self) -> &'static str {
        color_name(self.color)
    }

    /// The bughouse seat (`A1`, `B1`, `B2`, `A2`) this is, on a board of a match.
    pub fn bughouse(self) -> Option<bughouse::Seat> {
        use bughouse::Seat::*;
        match (self.board, self.color) {
            (0, Color::White) => Some(A1),
            (0, Color::Black) => Some(B1),
            (1, Color::White) => Some(B2),
            (1, Color::Black) => Some(A2),
            _ => None,
        }
    }
}

/// Reads a bughouse seat's name: `A1`, `B1`, `B2` or `A2`.
pub fn parse_bughouse_seat(s: &str) -> Option<bughouse::Seat> {
    bughouse::Seat::ALL
        .into_iter()
        .find(|seat| seat.to_string() == s)
}

/// The stored seat (board and colour) of a bughouse seat.
pub fn from_bughouse(seat: bughouse::Seat) -> Seat {
    Seat {
        board: match seat.board() {
            bughouse::Board::A => 0,
            bughouse::Board::B => 1,
        },
        color: seat.color(),
    }
}

/// Parses a stored colour name.
pub fn parse_color(s: &str) -> Option<Color> {
    match s {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

/// The stored name of a colour.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bughouse_seats_follow_the_boards() {
        let seat = |board, color| Seat { board, color }.bughouse();
        assert_eq!(seat(0, Color::White), Some(bughouse::Seat::A1));
        assert_eq!(seat(0, Color::Black), Some(bughouse::Seat::B1));
        assert_eq!(seat(1, Color::White), Some(bughouse::Seat::B2));
        assert_eq!(seat(1, Color::Black), Some(bughouse::Seat::A2));
        assert_eq!(seat(2, Color::White), None);
        for named in bughouse::Seat::ALL {
            assert_eq!(parse_bughouse_seat(&named.to_string()), Some(named));
            assert_eq!(from_bughouse(named).bughouse(), Some(named));
        }
        assert_eq!(parse_bughouse_seat("a1"), None);
        // Team A (A1, A2) is the result's White, team B its Black.
        for named in bughouse::Seat::ALL {
            let side = from_bughouse(named).side();
            assert_eq!(
                side == Color::White,
                named.team() == bughouse::Team::A,
                "{named}"
            );
        }
        assert_eq!(Seat::first_board(Color::Black).side(), Color::Black);
        assert_eq!(
            Seat::first_board(Color::White).opponent().color,
            Color::Black
        );
    }
}
