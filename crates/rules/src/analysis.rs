//! A player's analysis of a game: a tree of moves with variations from the game's start
//! position, read from PGN (pgn-reader) and written back as PGN with `( … )` variations.
//!
//! Every move is checked by the variant's rules as it is read; a move after the end of a
//! line (a mate, an exploded king) is illegal there like any other. A tree keeps one position
//! per node (no game history is copied per move), so reading costs the same at any depth.

use std::fmt;
use std::io::Cursor;
use std::ops::ControlFlow;

use pgn_reader::{Nag, RawComment, RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::san::San;
use shakmaty::uci::UciMove;
use shakmaty::variant::VariantPosition;
use shakmaty::{CastlingMode, Color, Position};

use crate::fen::write_fen;
use crate::game::{Game, san_text};
use crate::input;
use crate::pgn::{TagSection, clean_comment, wrap};
use crate::pgn_read::{keep_comment_part, push_tag, whole_comment};
use crate::variant::Variant;

/// One node of a [`MoveTree`]: the move that leads to it (none at the root) and the position
/// after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeNode {
    /// The node this move was played from; `None` for the root (the start position).
    pub parent: Option<usize>,
    /// The move in UCI as the server stores moves (`g1f3`, `e1g1`, `P@e4`); empty at the root.
    pub uci: String,
    /// The move in SAN with its `+`/`#` (`Nf3`, `P@e4`); empty at the root.
    pub san: String,
    /// The position after the move, as a full FEN.
    pub fen: String,
    /// The comment after the move (at the root: before the first move); empty for none.
    pub comment: String,
    /// The NAGs after the move (`$1` = `!`), in the order written.
    pub nags: Vec<u8>,
    /// The moves played from here, the main line first.
    pub children: Vec<usize>,
}

/// A tree of moves with variations from one start position; node 0 is the start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveTree {
    variant: Variant,
    castling: CastlingMode,
    standard_start: bool,
    nodes: Vec<TreeNode>,
    positions: Vec<VariantPosition>,
}

/// Why a text is not a tree of this game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeError {
    /// What is wrong, e.g. `ply 3 (2. Ke3): Ke3 is not a legal move here`.
    pub problem: String,
}

impl fmt::Display for TreeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.problem)
    }
}

impl std::error::Error for TreeError {}

fn problem(text: impl Into<String>) -> TreeError {
    TreeError {
        problem: text.into(),
    }
}

impl MoveTree {
    /// A tree holding only the start position of `game` (its first position, whatever has
    /// been played since).
    pub fn new(game: &Game) -> MoveTree {
        let start = game.start_position().clone();
        MoveTree {
            variant: game.variant(),
            castling: game.castling_mode(),
            standard_start: game.is_standard_start(),
            nodes: vec![TreeNode {
                parent: None,
                uci: String::new(),
                san: String::new(),
                fen: write_fen(&start),
                comment: String::new(),
                nags: Vec::new(),
                children: Vec::new(),
            }],
            positions: vec![start],
        }
    }

    /// Reads one PGN game as a tree from the start of `game`.
    ///
    /// Tags may be left out; a `Variant` tag must name the game's variant and a `FEN` tag its
    /// start position. Moves are SAN (or UCI where SAN does not read), checked one by one;
    /// `( … )` variations, `{ }` comments and NAGs are kept; the same move written twice from
    /// one position is one node. An empty text is the empty tree.
    ///
    /// ```
    /// use slowfuse_rules::{Game, MoveTree, Variant};
    ///
    /// let game = Game::new(Variant::Atomic);
    /// let tree = MoveTree::read(&game, "1. Nf3 (1. e4 d5) 1... f6 {solid} *")?;
    /// assert_eq!(tree.len(), 5);
    /// assert!(tree.write_movetext().starts_with("1. Nf3 (1. e4 d5) 1... f6 { solid } *"));
    /// assert!(MoveTree::read(&game, "1. e4 e5 2. Ke3").is_err());
    /// # Ok::<_, slowfuse_rules::TreeError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`TreeError`] says what and where: an illegal or ambiguous move (with its ply and
    /// number), a null move, a variation before any move, another variant or start position,
    /// more than one game, text that is not PGN.
    pub fn read(game: &Game, pgn: &str) -> Result<MoveTree, TreeError> {
        let tree = MoveTree::new(game);
        if pgn.trim().is_empty() {
            return Ok(tree);
        }
        let mut builder = Builder {
            tree: Some(tree),
            start_fen: game.initial_fen(),
        };
        let mut reader = Reader::new(Cursor::new(pgn.as_bytes()));
        let first = reader
            .read_game(&mut builder)
            .map_err(|e| problem(format!("the PGN cannot be read: {e}")))?;
        let tree = match first {
            Some(result) => result?,
            None => return Ok(MoveTree::new(game)),
        };
        // A second game in the text (anything but blank space after the first).
        let mut rest = Counter;
        match reader.read_game(&mut rest) {
            Ok(None) => Ok(tree),
            Ok(Some(())) => Err(problem("an analysis is one game: the text holds more")),
            Err(e) => Err(problem(format!("the PGN cannot be read: {e}"))),
        }
    }

    /// The nodes, the start position first.
    pub fn nodes(&self) -> &[TreeNode] {
        &self.nodes
    }

    /// The number of nodes, the start included.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree holds nothing but the start: no move and no comment.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() == 1 && self.nodes[0].comment.is_empty()
    }

    /// The child of `node` reached by the legal move `uci`, added after the others if it is
    /// new.
    ///
    /// # Errors
    ///
    /// [`TreeError`] for a node that does not exist or a move that is not legal there.
    pub fn play_uci(&mut self, node: usize, uci: &str) -> Result<usize, TreeError> {
        let pos = self
            .positions
            .get(node)
            .ok_or_else(|| problem(format!("there is no node {node}")))?;
        let m = input::resolve_uci(pos, uci).map_err(|e| problem(e.to_string()))?;
        Ok(self.add(node, m))
    }

    /// Adds the legal move `m` from `node`, or finds the child it already leads to.
    fn add(&mut self, node: usize, m: shakmaty::Move) -> usize {
        let pos = &self.positions[node];
        let uci = UciMove::from_move(m, self.castling).to_string();
        if let Some(&child) = self.nodes[node]
            .children
            .iter()
            .find(|&&c| self.nodes[c].uci == uci)
        {
            return child;
        }
        let san = san_text(&SanPlus::from_move(pos.clone(), m));
        let mut after = pos.clone();
        after.play_unchecked(m);
        let index = self.nodes.len();
        self.nodes.push(TreeNode {
            parent: Some(node),
            uci,
            san,
            fen: write_fen(&after),
            comment: String::new(),
            nags: Vec::new(),
            children: Vec::new(),
        });
        self.positions.push(after);
        self.nodes[node].children.push(index);
        index
    }

    /// The tree as one PGN game: `Event`, the players given, `Result "*"`, `Variant` for every
    /// variant but standard chess, `SetUp` and `FEN` when the game did not start from the usual
    /// position; then the movetext ([`MoveTree::write_movetext`]). The empty tree is `""`.
    pub fn write_pgn(&self, event: &str, white: &str, black: &str) -> String {
        if self.is_empty() {
            return String::new();
        }
        let mut out = String::new();
        let mut tags = TagSection::new(&mut out);
        tags.event(event, "?", "????.??.??");
        tags.tag("White", white);
        tags.tag("Black", black);
        tags.tag("Result", "*");
        if self.variant != Variant::Standard {
            tags.tag("Variant", self.variant.pgn_name());
        }
        if !self.standard_start {
            tags.tag("SetUp", "1");
            tags.tag("FEN", &self.nodes[0].fen);
        }
        tags.end();
        out.push_str(&self.write_movetext());
        out.push('\n');
        out
    }

    /// The movetext: numbered SAN, the main line first and each other move from a position as
    /// a `( … )` variation right after the main move, comments as `{ text }`, NAGs as `$n`,
    /// ending with `*`; lines of at most 80 characters.
    pub fn write_movetext(&self) -> String {
        let mut tokens = Vec::new();
        self.push_comment(0, &mut tokens);
        self.push_line(0, !self.nodes[0].comment.is_empty(), &mut tokens);
        tokens.push("*".to_owned());
        let mut out = String::new();
        wrap(&tokens, &mut out);
        out
    }

    /// The main line from `node` on, with the variations at each step.
    fn push_line(&self, mut node: usize, mut renumber: bool, tokens: &mut Vec<String>) {
        while let Some((&main, others)) = self.nodes[node].children.split_first() {
            renumber = self.push_move(main, renumber, tokens);
            for &other in others {
                let start = tokens.len();
                let again = self.push_move(other, true, tokens);
                tokens[start].insert(0, '(');
                self.push_line(other, again, tokens);
                if let Some(last) = tokens.last_mut() {
                    last.push(')');
                }
                renumber = true;
            }
            node = main;
        }
    }

    /// Writes the move of `node` (numbered when White moves, or Black's after an
    /// interruption), its NAGs and comment; returns whether the next move needs its number.
    fn push_move(&self, node: usize, renumber: bool, tokens: &mut Vec<String>) -> bool {
        let parent = &self.positions[self.nodes[node].parent.unwrap_or(0)];
        let number = parent.fullmoves();
        let san = &self.nodes[node].san;
        tokens.push(match parent.turn() {
            Color::White => format!("{number}. {san}"),
            Color::Black if renumber => format!("{number}... {san}"),
            Color::Black => san.clone(),
        });
        for nag in &self.nodes[node].nags {
            tokens.push(format!("${nag}"));
        }
        self.push_comment(node, tokens)
    }

    /// Writes the comment of `node`, if any; returns whether it wrote one.
    fn push_comment(&self, node: usize, tokens: &mut Vec<String>) -> bool {
        let text = clean_comment(&self.nodes[node].comment);
        if text.is_empty() {
            return false;
        }
        tokens.push("{".to_owned());
        tokens.extend(text.split(' ').map(str::to_owned));
        tokens.push("}".to_owned());
        true
    }
}

/// The pgn-reader visitor that builds a [`MoveTree`].
struct Builder {
    /// The tree being built (taken by `begin_movetext`).
    tree: Option<MoveTree>,
    start_fen: String,
}

/// The state of the movetext being read.
struct Building {
    tree: MoveTree,
    /// The node the next move is played from.
    at: usize,
    /// Where to go back to at each `)`.
    stack: Vec<usize>,
    comment: String,
}

impl Building {
    fn fail(&self, text: &str, why: &str) -> TreeError {
        let pos = &self.tree.positions[self.at];
        let dots = if pos.turn() == Color::White {
            "."
        } else {
            "..."
        };
        let ply = self.depth(self.at) + 1;
        problem(format!(
            "ply {ply} ({}{dots} {text}): {why}",
            pos.fullmoves()
        ))
    }

    fn depth(&self, mut node: usize) -> usize {
        let mut depth = 0;
        while let Some(parent) = self.tree.nodes[node].parent {
            depth += 1;
            node = parent;
        }
        depth
    }
}

impl Visitor for Builder {
    type Tags = Vec<(String, String)>;
    type Movetext = Building;
    type Output = Result<MoveTree, TreeError>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(Vec::new())
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        push_tag(tags, name, value);
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        let Some(tree) = self.tree.take() else {
            return ControlFlow::Break(Err(problem("an analysis is one game")));
        };
        for (name, value) in &tags {
            match name.as_str() {
                "Variant" => match value.parse::<Variant>() {
                    Ok(v) if v == tree.variant => {}
                    _ => {
                        return ControlFlow::Break(Err(problem(format!(
                            "the Variant tag says \"{value}\": this game is {}",
                            tree.variant.pgn_name()
                        ))));
                    }
                },
                "FEN" if !same_position(value, &self.start_fen) => {
                    return ControlFlow::Break(Err(problem(
                        "the FEN tag is not this game's start position: an analysis starts \
                         where the game started",
                    )));
                }
                _ => {}
            }
        }
        ControlFlow::Continue(Building {
            tree,
            at: 0,
            stack: Vec::new(),
            comment: String::new(),
        })
    }

    fn san(&mut self, movetext: &mut Building, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        let text = san_text(&san_plus);
        if matches!(san_plus.san, San::Null) {
            return ControlFlow::Break(Err(movetext.fail("--", "a null move cannot be analysed")));
        }
        let pos = &movetext.tree.positions[movetext.at];
        match input::resolve_san(pos, &san_plus.san) {
            Ok(m) => {
                movetext.at = movetext.tree.add(movetext.at, m);
                ControlFlow::Continue(())
            }
            Err(error) => {
                let why = if pos.legal_moves().is_empty() {
                    "the line has already ended".to_owned()
                } else {
                    error.to_string()
                };
                ControlFlow::Break(Err(movetext.fail(&text, &why)))
            }
        }
    }

    fn nag(&mut self, movetext: &mut Building, nag: Nag) -> ControlFlow<Self::Output> {
        let at = movetext.at;
        movetext.tree.nodes[at].nags.push(nag.0);
        ControlFlow::Continue(())
    }

    fn partial_comment(
        &mut self,
        movetext: &mut Building,
        comment: RawComment<'_>,
    ) -> ControlFlow<Self::Output> {
        keep_comment_part(&mut movetext.comment, comment);
        ControlFlow::Continue(())
    }

    fn comment(
        &mut self,
        movetext: &mut Building,
        comment: RawComment<'_>,
    ) -> ControlFlow<Self::Output> {
        let text = clean_comment(&whole_comment(&mut movetext.comment, comment));
        if !text.is_empty() {
            let at = movetext.at;
            let stored = &mut movetext.tree.nodes[at].comment;
            if !stored.is_empty() {
                stored.push(' ');
            }
            stored.push_str(&text);
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, movetext: &mut Building) -> ControlFlow<Self::Output, Skip> {
        // A variation replaces the move just played: it starts from that move's position.
        match movetext.tree.nodes[movetext.at].parent {
            Some(parent) => {
                movetext.stack.push(movetext.at);
                movetext.at = parent;
                ControlFlow::Continue(Skip(false))
            }
            None => {
                ControlFlow::Break(Err(problem("a variation must follow the move it replaces")))
            }
        }
    }

    fn end_variation(&mut self, movetext: &mut Building) -> ControlFlow<Self::Output> {
        match movetext.stack.pop() {
            Some(back) => {
                movetext.at = back;
                ControlFlow::Continue(())
            }
            None => ControlFlow::Break(Err(problem("a \")\" closes no variation"))),
        }
    }

    fn end_game(&mut self, movetext: Building) -> Self::Output {
        if !movetext.stack.is_empty() {
            return Err(problem("a variation is not closed with \")\""));
        }
        Ok(movetext.tree)
    }
}

/// Two FENs of one position, the move counters aside when one of them leaves them out.
fn same_position(a: &str, b: &str) -> bool {
    let fields = |fen: &str| {
        fen.split_whitespace()
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    let (a, b) = (fields(a), fields(b));
    let shared = a.len().min(b.len()).max(4);
    a.iter().take(shared).eq(b.iter().take(shared))
}

/// A visitor that only notices whether there is another game.
struct Counter;

impl Visitor for Counter {
    type Tags = ();
    type Movetext = ();
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _movetext: &mut ()) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn end_game(&mut self, _movetext: ()) -> Self::Output {}
}

#[cfg(test)]
mod tests {
    use super::*;

    fn atomic() -> Game {
        Game::new(Variant::Atomic)
    }

    fn sans(tree: &MoveTree) -> Vec<&str> {
        tree.nodes()
            .iter()
            .skip(1)
            .map(|n| n.san.as_str())
            .collect()
    }

    #[test]
    fn variations_nest_and_write_back_as_read() {
        let text = "1. e4 e5 (1... c5 2. Nf3 (2. Nc3 Nc6) 2... d6) (1... e6) 2. Nf3 {main} *";
        let tree = MoveTree::read(&Game::new(Variant::Standard), text).unwrap();
        assert_eq!(
            sans(&tree),
            ["e4", "e5", "c5", "Nf3", "Nc3", "Nc6", "d6", "e6", "Nf3"]
        );
        let written = tree.write_movetext();
        assert_eq!(
            written,
            "1. e4 e5 (1... c5 2. Nf3 (2. Nc3 Nc6) 2... d6) (1... e6) 2. Nf3 { main } *\n"
        );
        let again = MoveTree::read(&Game::new(Variant::Standard), &written).unwrap();
        assert_eq!(again.nodes(), tree.nodes());
    }

    #[test]
    fn a_move_written_twice_is_one_node_and_uci_reads() {
        let tree = MoveTree::read(&atomic(), "1. Nf3 (1. g1f3 f6) *").unwrap();
        assert_eq!(sans(&tree), ["Nf3", "f6"]);
    }

    #[test]
    fn illegal_moves_name_the_ply() {
        let error = MoveTree::read(&atomic(), "1. Nf3 f6 (1... Ke7) 2. Ne5 *").unwrap_err();
        assert_eq!(
            error.problem,
            "ply 2 (1... Ke7): Ke7 is not a legal move here"
        );
        let ended = MoveTree::read(&atomic(), "1. Nf3 Nf6 2. Ne5 e6 3. Nxf7 Ke7 *").unwrap_err();
        assert_eq!(
            ended.problem,
            "ply 6 (3... Ke7): the line has already ended"
        );
    }

    #[test]
    fn tags_must_name_this_game() {
        let game = Game::new(Variant::Standard);
        assert!(MoveTree::read(&game, "[Variant \"Atomic\"]\n\n1. e4 *").is_err());
        assert!(MoveTree::read(&game, "[Variant \"Standard\"]\n\n1. e4 *").is_ok());
        assert!(
            MoveTree::read(&game, "[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. Kd2 *").is_err()
        );
        assert!(MoveTree::read(&game, "1. e4 *\n\n1. d4 *").is_err());
    }

    #[test]
    fn broken_variations_are_refused() {
        let game = Game::new(Variant::Standard);
        assert!(MoveTree::read(&game, "(1. e4) *").is_err());
        assert!(MoveTree::read(&game, "1. e4 (1. d4 *").is_err());
        assert!(MoveTree::read(&game, "1. e4 -- *").is_err());
    }

    #[test]
    fn drops_and_pgn_tags() {
        let game = Game::new(Variant::Crazyhouse);
        let tree = MoveTree::read(&game, "1. e4 d5 2. exd5 Qxd5 3. P@e4 *").unwrap();
        let last = tree.nodes().last().unwrap();
        assert_eq!((last.uci.as_str(), last.san.as_str()), ("P@e4", "P@e4"));
        let pgn = tree.write_pgn("Analysis", "alice", "bob");
        assert!(pgn.contains("[Variant \"Crazyhouse\"]"), "{pgn}");
        assert!(pgn.ends_with("3. P@e4 *\n\n"), "{pgn}");
        assert_eq!(MoveTree::new(&game).write_pgn("A", "a", "b"), "");
    }

    #[test]
    fn adding_a_move_by_uci_keeps_the_main_line_first() {
        let mut tree = MoveTree::read(&atomic(), "1. Nf3 *").unwrap();
        let side = tree.play_uci(0, "e2e4").unwrap();
        assert_eq!(tree.play_uci(0, "g1f3").unwrap(), 1);
        assert_eq!(tree.nodes()[0].children, [1, side]);
        assert!(tree.play_uci(side, "e1e3").is_err());
    }
}
