//! The template games: players signed up and games played through the use cases, one action
//! at a time, so that every row is what the server itself writes.

use chrono::{Duration, NaiveDateTime};
use slowfuse::db::DbConnection;
use slowfuse::game::RecordCache;
use slowfuse::random::FixedRandom;
use slowfuse::usecases::accounts::{CheckedSignUp, sign_up};
use slowfuse::usecases::challenges::{ChallengeRequest, accept_challenge, create_challenge};
use slowfuse::usecases::clocks::TimeControlRequest;
use slowfuse::usecases::email_settings::{DigestTime, confirm_address, set_kinds};
use slowfuse::usecases::notify::{Kind, Mode};
use slowfuse::usecases::play::{Action, ActionRequest, act};
use slowfuse::usecases::tags::add_tag;
use slowfuse_rules::{Game, Variant};

/// The variants of the template games, atomic (the flagship) most often.
const VARIANTS: [&str; 8] = [
    "atomic",
    "atomic",
    "atomic",
    "standard",
    "standard",
    "crazyhouse",
    "antichess",
    "chess960",
];

/// A password hash in the stored format; nobody logs in during the benchmark.
const HASH: &str =
    "$argon2id$v=19$m=19456,t=2,p=1$c2NhbGVzYWx0$c2NhbGVoYXNoc2NhbGVoYXNoc2NhbGVoYXNo";

/// What the templates are: the players (the first is the busy one) and the games.
pub struct Templates {
    /// Template players' ids, contiguous; `users[0]` plays in every eighth game.
    pub users: Vec<i64>,
    /// Finished games' ids, contiguous.
    pub finished: (i64, i64),
    /// Running games' ids, contiguous, all with a clock of days per move.
    pub running: (i64, i64),
    pub running_days: Vec<i32>,
}

/// A small deterministic generator (a 64-bit LCG), so that every run builds the same games.
pub struct Lcg(u64);

impl Lcg {
    pub fn new(seed: u64) -> Lcg {
        Lcg(seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407))
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n.max(1)
    }
}

/// Signs up `n` players, confirms their addresses and sets every fifth one's "your move"
/// and "game over" mails to the daily digest.
fn players(conn: &mut DbConnection, at: NaiveDateTime, n: usize) -> Vec<i64> {
    (0..n)
        .map(|i| {
            let checked = CheckedSignUp {
                username: format!("p{i:03}"),
                email: format!("p{i:03}@example.org"),
            };
            let user = sign_up(conn, at, &checked, HASH).expect("sign up a template player");
            confirm_address(conn, at, user.id).expect("confirm the address");
            if i % 5 == 1 {
                let kinds = [
                    (Kind::YourTurn, Mode::Digest),
                    (Kind::GameOver, Mode::Digest),
                ];
                set_kinds(conn, at, user.id, &kinds, &DigestTime::default())
                    .expect("choose the digest");
            }
            user.id
        })
        .collect()
}

/// One game to play: who, what and how long.
struct Plan<'a> {
    white: (i64, &'a str),
    black: (i64, &'a str),
    variant: &'a str,
    days: i32,
    rated: bool,
}

/// Creates the challenge, has it accepted and returns the game's id.
fn start(conn: &mut DbConnection, at: NaiveDateTime, plan: &Plan<'_>, seed: u32) -> i64 {
    let req = ChallengeRequest {
        variant: plan.variant.to_string(),
        color: "white".into(),
        time: TimeControlRequest {
            kind: Some("days".into()),
            days_per_move: Some(plan.days),
            preset: None,
            initial_days: None,
            increment_hours: None,
            cap_days: None,
        },
        opponent: Some(plan.black.1.to_string()),
        link_only: false,
        rated: plan.rated,
        auto_flag: true,
        private: false,
        minesweeper: None,
        setup_hours: None,
    };
    let challenge = create_challenge(conn, at, plan.white.0, &req).expect("create a challenge");
    let random = FixedRandom::new(true, seed);
    accept_challenge(conn, at, &random, challenge.id, plan.black.0, None).expect("accept")
}

/// Plays `plies` random legal moves (or fewer if the game ends); returns the rules' game and
/// the time after the last move.
#[allow(clippy::too_many_arguments)]
fn play_moves(
    conn: &mut DbConnection,
    records: &RecordCache,
    game_id: i64,
    seats: [i64; 2],
    mut game: Game,
    mut at: NaiveDateTime,
    plies: u32,
    rng: &mut Lcg,
) -> (Game, NaiveDateTime) {
    for _ in 0..plies {
        if game.is_over() {
            break;
        }
        let moves = game.legal_ucis();
        if moves.is_empty() {
            break;
        }
        let uci = &moves[rng.below(moves.len() as u64) as usize];
        let mover = seats[game.ply() as usize % 2];
        let message = (game.ply() < 2).then(|| "Have a good game".to_string());
        let req = ActionRequest {
            message,
            ..ActionRequest::at_ply(game_id, mover, game.ply() as i32, Action::Move(uci.clone()))
        };
        act(conn, records, at, 2000, &req).expect("a legal move");
        game = game.play_uci(uci).expect("the same move by the rules");
        at += Duration::minutes(30 + rng.below(300) as i64);
    }
    (game, at)
}

fn run_action(
    conn: &mut DbConnection,
    records: &RecordCache,
    at: NaiveDateTime,
    (game_id, user_id, ply): (i64, i64, u32),
    action: Action,
) {
    let req = ActionRequest::at_ply(game_id, user_id, ply as i32, action);
    act(conn, records, at, 2000, &req).expect("the ending action");
}

/// Ends a game that is still on: resignation by the player to move, or a draw offered and
/// accepted, by turns.
fn end(
    conn: &mut DbConnection,
    records: &RecordCache,
    (game_id, seats, game, at): (i64, [i64; 2], &Game, NaiveDateTime),
    how: u64,
) {
    if game.is_over() {
        return;
    }
    let ply = game.ply();
    let (mover, other) = (seats[ply as usize % 2], seats[(ply as usize + 1) % 2]);
    if how.is_multiple_of(2) {
        run_action(conn, records, at, (game_id, mover, ply), Action::Resign);
    } else {
        run_action(conn, records, at, (game_id, mover, ply), Action::OfferDraw);
        let later = at + Duration::hours(2);
        run_action(
            conn,
            records,
            later,
            (game_id, other, ply),
            Action::AcceptDraw,
        );
    }
}

/// Builds the templates: `users` players, `finished` finished games (a tenth of them fool's
/// mates in standard chess, the rest random moves ended by resignation or agreement) played
/// three weeks before `base`, and `running` games whose last move was just before `base`.
pub fn build(
    conn: &mut DbConnection,
    base: NaiveDateTime,
    (users, finished, running): (usize, usize, usize),
    progress: &dyn Fn(),
) -> Templates {
    let records = RecordCache::default();
    let ids = players(conn, base - Duration::days(400), users);
    let names: Vec<String> = (0..users).map(|i| format!("p{i:03}")).collect();
    let mut rng = Lcg::new(7);
    let mut game_ids = Vec::new();
    let mut running_days = Vec::new();
    for i in 0..finished + running {
        let is_running = i >= finished;
        let a = if i.is_multiple_of(8) {
            0
        } else {
            1 + rng.below(users as u64 - 1) as usize
        };
        let mut b = 1 + rng.below(users as u64 - 1) as usize;
        if b == a {
            b = 1 + (b % (users - 1));
        }
        let (w, bl) = if rng.below(2) == 0 { (a, b) } else { (b, a) };
        let fools_mate = !is_running && i % 10 == 5;
        let variant = if fools_mate {
            "standard"
        } else {
            VARIANTS[rng.below(VARIANTS.len() as u64) as usize]
        };
        let days = if is_running {
            [3, 5, 7, 10, 14][rng.below(5) as usize]
        } else {
            [1, 2, 3, 5, 7][rng.below(5) as usize]
        };
        let plan = Plan {
            white: (ids[w], &names[w]),
            black: (ids[bl], &names[bl]),
            variant,
            days,
            rated: i.is_multiple_of(2),
        };
        let plies = if is_running {
            6 + rng.below(30) as u32
        } else {
            8 + rng.below(40) as u32
        };
        // Running games move every two hours up to `base`; finished ones start 21 days back.
        let at = if is_running {
            base - Duration::hours(2 * i64::from(plies) + 2)
        } else {
            base - Duration::days(21)
        };
        let game_id = start(conn, at, &plan, i as u32);
        let seats = [ids[w], ids[bl]];
        let rules = Game::new(variant.parse::<Variant>().unwrap_or(Variant::Standard));
        let rules = if variant == "chess960" {
            let record = slowfuse::game::load_game(conn, game_id)
                .expect("read the game")
                .expect("the game");
            Game::from_fen(Variant::Chess960, &record.game.initial_fen).expect("the start")
        } else {
            rules
        };
        let (game, at) = if fools_mate {
            let mut at = at;
            let mut game = rules;
            for uci in ["f2f3", "e7e5", "g2g4", "d8h4"] {
                let mover = seats[game.ply() as usize % 2];
                let action = Action::Move(uci.to_string());
                run_action(conn, &records, at, (game_id, mover, game.ply()), action);
                game = game.play_uci(uci).expect("fool's mate");
                at += Duration::hours(1);
            }
            (game, at)
        } else if is_running {
            let mut rng2 = Lcg::new(i as u64);
            let at = at + Duration::hours(1);
            let mut at2 = at;
            let mut game = rules;
            for _ in 0..plies {
                let (g, _) = play_moves(conn, &records, game_id, seats, game, at2, 1, &mut rng2);
                game = g;
                at2 += Duration::hours(2);
                if game.is_over() {
                    break;
                }
            }
            (game, at2)
        } else {
            play_moves(conn, &records, game_id, seats, rules, at, plies, &mut rng)
        };
        if !is_running {
            end(conn, &records, (game_id, seats, &game, at), rng.below(2));
        } else {
            running_days.push(days);
        }
        if i.is_multiple_of(6) {
            add_tag(conn, at, seats[0], game_id, "study").expect("tag a game");
        }
        game_ids.push(game_id);
        progress();
    }
    let finished_ids = &game_ids[..finished];
    let running_ids = &game_ids[finished..];
    Templates {
        users: ids,
        finished: (finished_ids[0], *finished_ids.last().unwrap()),
        running: (running_ids[0], *running_ids.last().unwrap()),
        running_days,
    }
}
