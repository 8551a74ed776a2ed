//! The game database: all games searched by players, variant, result, status, rating, the
//! searcher's own tags and dates; sorted, paged, the same on SQLite and PostgreSQL.

use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;
use diesel::sql_types::Bool;
use serde::{Deserialize, Serialize};
use slowfuse_rules::{Color, GameKind, Variant};

use crate::db::{DbConnection, MultiBackend};
use crate::game::color_name;
use crate::models::Game;
use crate::openings::position_key;
use crate::schema::{book_moves, game_imports, game_players, game_tags, games};
use crate::usecases::tags::{TagError, check_tag, my_tags_on};

/// Games per page unless `per_page` says otherwise.
pub const DEFAULT_PER_PAGE: u32 = 50;
/// The most games one page may hold.
pub const MAX_PER_PAGE: u32 = 100;
/// The highest page number accepted.
pub const MAX_PAGE: u32 = 10_000;
/// The longest query string accepted, in bytes.
pub const MAX_QUERY_BYTES: usize = 2_048;
/// The most tags one search may ask for.
pub const MAX_SEARCH_TAGS: usize = 5;

/// A search as typed in the form or the URL: every field a string, empty when unused.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct SearchParams {
    /// A player's username (any case), or the name an imported game's PGN gives a player.
    pub player: String,
    /// A second player, on the other side of the board.
    pub opponent: String,
    /// `white` or `black`: the colour `player` had; empty for either.
    pub color: String,
    pub variant: String,
    /// `1-0`, `0-1`, `draw` or `*`.
    pub result: String,
    /// `started`, `finished` or `aborted`.
    pub status: String,
    /// `yes`, `no` or `any`.
    pub rated: String,
    /// The searcher's own tags, separated by spaces or commas: games carrying all of them.
    pub tags: String,
    /// A position (FEN) of the variant (standard when none is named): the finished games that
    /// moved on from it within their first 30 moves a side (the games the opening book counts).
    pub position: String,
    /// Dates as `YYYY-MM-DD` (UTC), both ends included.
    pub started_from: String,
    pub started_to: String,
    pub finished_from: String,
    pub finished_to: String,
    /// `finished` (newest finished first, the default) or `time_left` (most urgent first).
    pub sort: String,
    pub page: String,
    pub per_page: String,
}

/// Why a search was refused.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    #[error("the search is too long: at most 2048 characters")]
    TooLong,
    #[error("the search could not be read: {0}")]
    Unreadable(String),
    #[error("\"{0}\" is not a username: 1 to 20 letters and digits of any script, _ or -")]
    BadName(String),
    #[error("player and opponent must be two different players")]
    SameNames,
    #[error("colour must be white, black or empty (either colour)")]
    BadColor,
    #[error("unknown variant \"{0}\": choose one of {1}")]
    UnknownVariant(String, String),
    #[error("result must be 1-0, 0-1, draw or * (no result)")]
    BadResult,
    #[error("status must be started, finished or aborted")]
    BadStatus,
    #[error("rated must be yes, no or any")]
    BadRated,
    #[error(
        "sort must be finished (newest finished first) or time_left (running games, most urgent first)"
    )]
    BadSort,
    #[error("page must be a whole number from 1 to 10000")]
    BadPage,
    #[error("per_page must be a whole number from 1 to 100")]
    BadPerPage,
    #[error("{0} must be a date like 2026-03-01: \"{1}\" is not one")]
    BadDate(&'static str, String),
    #[error("{0} is after {1}: no game can match")]
    EmptyRange(&'static str, &'static str),
    #[error("log in to search by your tags")]
    TagsNeedLogin,
    #[error("search for at most 5 tags at once")]
    TooManyTags,
    #[error("position must be a FEN of the variant: {0}")]
    BadPosition(String),
    #[error(transparent)]
    Tag(#[from] TagError),
}

/// The order of the results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sort {
    /// Finished games, the most recently finished first; then unfinished ones, newest first.
    Finished,
    /// Running games, the earliest deadline first; then the others, newest first.
    TimeLeft,
}

/// A half-open time range `[from, until)`; either end may be open.
#[derive(Clone, Copy, Debug, Default)]
pub struct DateRange {
    pub from: Option<NaiveDateTime>,
    pub until: Option<NaiveDateTime>,
}

/// A checked search.
#[derive(Clone, Debug)]
pub struct Search {
    /// Username keys (lowercased), with the colour the first one had.
    pub player: Option<String>,
    pub opponent: Option<String>,
    pub color: Option<Color>,
    /// A variant of one board and two players (the position search's rules).
    pub variant: Option<Variant>,
    /// The variant as stored, also `bughouse` and `minesweeper`.
    pub variant_name: Option<&'static str>,
    /// The stored result: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: Option<&'static str>,
    pub status: Option<&'static str>,
    pub rated: Option<bool>,
    /// The searcher's tags, as stored.
    pub tags: Vec<String>,
    /// The opening book's key of a position the games passed through.
    pub position: Option<String>,
    pub started: DateRange,
    pub finished: DateRange,
    pub sort: Sort,
    pub page: u32,
    pub per_page: u32,
}

/// The lookup key of a player's name typed in the search (`usernames::lookup_key`): any case,
/// any normal form.
fn name_key(raw: &str) -> Result<Option<String>, SearchError> {
    let name = crate::usernames::normalise(raw);
    if name.is_empty() {
        return Ok(None);
    }
    let len = name.chars().count();
    if len > 20 || !crate::usernames::may_be_searched(&name) {
        return Err(SearchError::BadName(name.chars().take(40).collect()));
    }
    Ok(Some(crate::usernames::lookup_key(&name)))
}

fn date(
    field: &'static str,
    raw: &str,
    next_day: bool,
) -> Result<Option<NaiveDateTime>, SearchError> {
    let raw = raw.trim();
    if raw.is_empty() {
        return Ok(None);
    }
    let bad = || SearchError::BadDate(field, raw.chars().take(40).collect());
    let day = NaiveDate::parse_from_str(raw, "%Y-%m-%d").map_err(|_| bad())?;
    let day = if next_day {
        day.succ_opt().ok_or_else(bad)?
    } else {
        day
    };
    Ok(Some(day.and_time(chrono::NaiveTime::MIN)))
}

fn range(from: (&'static str, &str), to: (&'static str, &str)) -> Result<DateRange, SearchError> {
    let r = DateRange {
        from: date(from.0, from.1, false)?,
        until: date(to.0, to.1, true)?,
    };
    if let (Some(f), Some(u)) = (r.from, r.until)
        && f >= u
    {
        return Err(SearchError::EmptyRange(from.0, to.0));
    }
    Ok(r)
}

fn number(raw: &str, default: u32, max: u32, err: SearchError) -> Result<u32, SearchError> {
    let raw = raw.trim();
    if raw.is_empty() {
        return Ok(default);
    }
    match raw.parse::<u32>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(err),
    }
}

impl SearchParams {
    /// Reads a query string; refuses one that is too long or malformed.
    pub fn from_query(query: &str) -> Result<SearchParams, SearchError> {
        if query.len() > MAX_QUERY_BYTES {
            return Err(SearchError::TooLong);
        }
        serde_urlencoded::from_str(query).map_err(|e| SearchError::Unreadable(e.to_string()))
    }

    /// The query string of this search on another page (empty fields left out).
    pub fn to_query(&self, page: Option<u32>) -> String {
        let mut copy = self.clone();
        copy.page = page.map(|p| p.to_string()).unwrap_or_default();
        let pairs: Vec<(&str, &str)> = copy
            .fields()
            .into_iter()
            .filter(|(_, v)| !v.trim().is_empty())
            .collect();
        serde_urlencoded::to_string(pairs).unwrap_or_default()
    }

    fn fields(&self) -> Vec<(&'static str, &str)> {
        vec![
            ("player", &self.player),
            ("opponent", &self.opponent),
            ("color", &self.color),
            ("variant", &self.variant),
            ("result", &self.result),
            ("status", &self.status),
            ("rated", &self.rated),
            ("tags", &self.tags),
            ("position", &self.position),
            ("started_from", &self.started_from),
            ("started_to", &self.started_to),
            ("finished_from", &self.finished_from),
            ("finished_to", &self.finished_to),
            ("sort", &self.sort),
            ("page", &self.page),
            ("per_page", &self.per_page),
        ]
    }

    /// Checks every field; `logged_in` says whether tags may be searched.
    pub fn check(&self, logged_in: bool) -> Result<Search, SearchError> {
        let mut player = name_key(&self.player)?;
        let mut opponent = name_key(&self.opponent)?;
        let mut color = match self.color.trim().to_lowercase().as_str() {
            "" | "any" | "either" => None,
            "white" => Some(Color::White),
            "black" => Some(Color::Black),
            _ => return Err(SearchError::BadColor),
        };
        if player.is_some() && player == opponent {
            return Err(SearchError::SameNames);
        }
        if player.is_none() && opponent.is_some() {
            // An opponent alone is a player with the other colour.
            player = opponent.take();
            color = color.map(|c| !c);
        }
        let kind = match self.variant.trim() {
            "" | "any" => None,
            v => Some(v.parse::<GameKind>().map_err(|_| {
                let names: Vec<&str> = GameKind::all().map(GameKind::as_str).collect();
                SearchError::UnknownVariant(v.chars().take(40).collect(), names.join(", "))
            })?),
        };
        let (variant, variant_name) =
            (kind.and_then(GameKind::variant), kind.map(GameKind::as_str));
        let result = match self.result.trim().to_lowercase().as_str() {
            "" | "any" => None,
            "1-0" => Some("1-0"),
            "0-1" => Some("0-1"),
            "draw" | "1/2-1/2" | "½-½" => Some("1/2-1/2"),
            "*" => Some("*"),
            _ => return Err(SearchError::BadResult),
        };
        let status = match self.status.trim().to_lowercase().as_str() {
            "" | "any" => None,
            "setup" => Some("setup"),
            "started" => Some("started"),
            "finished" => Some("finished"),
            "aborted" => Some("aborted"),
            _ => return Err(SearchError::BadStatus),
        };
        let rated = match self.rated.trim().to_lowercase().as_str() {
            "" | "any" => None,
            "yes" | "true" => Some(true),
            "no" | "false" => Some(false),
            _ => return Err(SearchError::BadRated),
        };
        let sort = match self.sort.trim() {
            "" | "finished" => Sort::Finished,
            "time_left" => Sort::TimeLeft,
            _ => return Err(SearchError::BadSort),
        };
        let tags = self.tags()?;
        if !tags.is_empty() && !logged_in {
            return Err(SearchError::TagsNeedLogin);
        }
        let position = match self.position.trim() {
            "" => None,
            _ if variant.is_none() && variant_name.is_some() => {
                return Err(SearchError::BadPosition(
                    "positions are searched in the variants of one board and two players"
                        .to_string(),
                ));
            }
            fen => {
                let game =
                    slowfuse_rules::Game::from_fen(variant.unwrap_or(Variant::Standard), fen)
                        .map_err(|e| SearchError::BadPosition(e.to_string()))?;
                Some(position_key(&game.fen()))
            }
        };
        Ok(Search {
            player,
            opponent,
            color,
            variant,
            variant_name,
            result,
            status,
            rated,
            tags,
            position,
            started: range(
                ("started from", &self.started_from),
                ("started to", &self.started_to),
            )?,
            finished: range(
                ("finished from", &self.finished_from),
                ("finished to", &self.finished_to),
            )?,
            sort,
            page: number(&self.page, 1, MAX_PAGE, SearchError::BadPage)?,
            per_page: number(
                &self.per_page,
                DEFAULT_PER_PAGE,
                MAX_PER_PAGE,
                SearchError::BadPerPage,
            )?,
        })
    }

    fn tags(&self) -> Result<Vec<String>, SearchError> {
        let mut tags: Vec<String> = Vec::new();
        for word in self
            .tags
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty())
        {
            let tag = check_tag(word)?;
            if !tags.contains(&tag) {
                tags.push(tag);
            }
        }
        if tags.len() > MAX_SEARCH_TAGS {
            return Err(SearchError::TooManyTags);
        }
        Ok(tags)
    }
}

/// One game found, with its players' names and the searcher's tags on it.
#[derive(Clone, Debug)]
pub struct FoundGame {
    pub game: Game,
    pub white: String,
    pub black: String,
    /// The names as people read them ("Computer (Easy)" for a computer account).
    pub white_name: String,
    pub black_name: String,
    /// The searcher's own tags; empty for anyone not logged in.
    pub tags: Vec<String>,
}

/// One page of results.
#[derive(Clone, Debug)]
pub struct SearchResults {
    /// How many games match in all.
    pub total: i64,
    pub page: u32,
    pub per_page: u32,
    pub games: Vec<FoundGame>,
    /// Names searched for that no user has (so nothing can match).
    pub unknown_players: Vec<String>,
}

impl SearchResults {
    /// The number of pages (at least 1).
    pub fn pages(&self) -> u32 {
        let per = i64::from(self.per_page.max(1));
        u32::try_from(((self.total + per - 1) / per).max(1)).unwrap_or(u32::MAX)
    }

    /// Whether a later page holds more games.
    pub fn has_next(&self) -> bool {
        self.page < self.pages()
    }
}

type Filtered<'a> = games::BoxedQuery<'a, MultiBackend>;

/// A player searched for: an account (by id) and the games imported under that name.
struct Named {
    /// The account of that name, if there is one.
    user: Option<i64>,
    /// The name in lower case, as an imported game's PGN gives it.
    key: String,
    /// Whether an imported game names a player so. When not, the filter asks the seats alone:
    /// an `OR` of two subqueries makes PostgreSQL read every game (docs/benchmarks.md, "Data
    /// at scale").
    imported: bool,
}

/// Who the named players are: accounts or imported games' names, or the names nobody has.
struct Players {
    player: Option<Named>,
    opponent: Option<Named>,
    unknown: Vec<String>,
}

/// Whether an imported game names a player so (in any case).
fn imported_name_exists(conn: &mut DbConnection, key: &str) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(
        game_imports::table.filter(
            game_imports::white_key
                .eq(key)
                .or(game_imports::black_key.eq(key)),
        ),
    ))
    .get_result(conn)
}

/// The player called `key`: an account, a name of imported games, or nobody (`None`).
fn named(conn: &mut DbConnection, key: &str) -> QueryResult<Option<Named>> {
    let user = user_id_of(conn, key)?;
    let imported = imported_name_exists(conn, key)?;
    if user.is_none() && !imported {
        return Ok(None);
    }
    Ok(Some(Named {
        user,
        key: key.to_string(),
        imported,
    }))
}

/// Whether `key` (a lowercased username) names an account.
pub fn is_player(conn: &mut DbConnection, key: &str) -> QueryResult<bool> {
    Ok(user_id_of(conn, key)?.is_some())
}

/// The account `key` names: by its key, else by its skeleton (`accounts::user_by_name`).
fn user_id_of(conn: &mut DbConnection, key: &str) -> QueryResult<Option<i64>> {
    Ok(crate::usecases::accounts::user_by_name(conn, key)?.map(|u| u.id))
}

fn find_players(conn: &mut DbConnection, s: &Search) -> QueryResult<Players> {
    let mut players = Players {
        player: None,
        opponent: None,
        unknown: Vec::new(),
    };
    if let Some(key) = &s.player {
        players.player = named(conn, key)?;
        if players.player.is_none() {
            players.unknown.push(key.clone());
        }
    }
    if let Some(key) = &s.opponent {
        players.opponent = named(conn, key)?;
        if players.opponent.is_none() {
            players.unknown.push(key.clone());
        }
    }
    Ok(players)
}

fn colors(c: Option<Color>) -> Vec<&'static str> {
    match c {
        Some(c) => vec![color_name(c)],
        None => vec!["white", "black"],
    }
}

/// How the filters that name a set of games (a player's seats, a position) are asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Read {
    /// The set is gathered first (`id IN (…)`), then what matches is sorted: cheap for a small
    /// set, and what the count and the export ask.
    Gather,
    /// Each game, walked in the search's order, is checked against the set (`EXISTS (…)` of
    /// its own rows): a page of a large set without sorting all of it. The `OFFSET 0` in the
    /// `EXISTS` keeps PostgreSQL from turning it into a join, which it would plan as the
    /// gathering (a hash join of every match, then a sort) when it misjudges the share.
    Walk,
}

/// How to read a page of `total` matching games up to its last (`wanted`, counted from the
/// first match), in the order of newest finished first: walked when [`walk_is_shorter`],
/// gathered otherwise. So a page of a player with thousands of games or of a position
/// thousands of games passed through is walked, and a player's few games among many, or a
/// page far down, are gathered.
fn page_read(conn: &mut DbConnection, s: &Search, total: i64, wanted: i64) -> QueryResult<Read> {
    if s.sort != Sort::Finished || total == 0 {
        return Ok(Read::Gather);
    }
    Ok(if walk_is_shorter(conn, wanted, total)? {
        Read::Walk
    } else {
        Read::Gather
    })
}

/// Whether walking every game in an order, each checked against a set of `matches` games,
/// passes fewer games before the `wanted`-th match than gathering the set would sort. The walk
/// passes about `wanted × games / matches` games, the games counted by their highest id (ids
/// are never reused and games are hardly ever deleted): one cheap query.
pub(crate) fn walk_is_shorter(
    conn: &mut DbConnection,
    wanted: i64,
    matches: i64,
) -> QueryResult<bool> {
    if matches <= 0 {
        return Ok(false);
    }
    let games: Option<i64> = games::table
        .select(diesel::dsl::max(games::id))
        .get_result(conn)?;
    Ok(wanted.saturating_mul(games.unwrap_or(0)) / matches <= matches)
}

/// The games matching every filter, unordered.
fn filtered<'a>(s: &'a Search, viewer: Option<i64>, players: &Players, read: Read) -> Filtered<'a> {
    type Condition = Box<dyn BoxableExpression<games::table, MultiBackend, SqlType = Bool>>;
    let mut q = games::table.into_boxed::<MultiBackend>();
    // A player sits in the game with their account, or an imported game names them.
    let plays = |named: &Named, color: Option<Color>| {
        let user = named.user.unwrap_or(-1);
        let seats = || {
            game_players::table
                .filter(game_players::user_id.eq(user))
                .filter(game_players::color.eq_any(colors(color)))
        };
        // A key never stored (an empty name is kept as "?") for the colour not searched.
        let key_as = |c: Color| {
            if color.is_none_or(|want| want == c) {
                named.key.clone()
            } else {
                String::new()
            }
        };
        let imported = game_imports::table
            .filter(
                game_imports::white_key
                    .eq(key_as(Color::White))
                    .or(game_imports::black_key.eq(key_as(Color::Black))),
            )
            .select(game_imports::game_id);
        let seated = || games::id.eq_any(seats().select(game_players::game_id));
        let condition: Condition = match (named.user.is_some(), named.imported) {
            (true, false) if read == Read::Walk => Box::new(diesel::dsl::exists(
                seats()
                    .filter(game_players::game_id.eq(games::id))
                    .offset(0),
            )),
            (true, false) => Box::new(seated()),
            (false, _) => Box::new(games::id.eq_any(imported)),
            (true, true) => Box::new(seated().or(games::id.eq_any(imported))),
        };
        condition
    };
    if let Some(p) = &players.player {
        q = q.filter(plays(p, s.color));
    }
    if let Some(o) = &players.opponent {
        q = q.filter(plays(o, s.color.map(|c| !c)));
    }
    if let Some(v) = s.variant_name {
        q = q.filter(games::variant.eq(v));
    }
    if let Some(r) = s.result {
        q = q.filter(games::result.eq(r));
    }
    if let Some(st) = s.status {
        q = q.filter(games::status.eq(st));
    }
    if let Some(r) = s.rated {
        q = q.filter(games::rated.eq(r));
    }
    if let Some(from) = s.started.from {
        q = q.filter(games::created_at.ge(from));
    }
    if let Some(until) = s.started.until {
        q = q.filter(games::created_at.lt(until));
    }
    if let Some(from) = s.finished.from {
        q = q.filter(games::finished_at.ge(from));
    }
    if let Some(until) = s.finished.until {
        q = q.filter(games::finished_at.lt(until));
    }
    if let Some(key) = &s.position {
        let variant = s.variant.unwrap_or(Variant::Standard).as_str();
        let visits = book_moves::table
            .filter(book_moves::variant.eq(variant))
            .filter(book_moves::position.eq(key.clone()));
        let passed: Condition = match read {
            Read::Gather => Box::new(games::id.eq_any(visits.select(book_moves::game_id))),
            Read::Walk => Box::new(diesel::dsl::exists(
                visits.filter(book_moves::game_id.eq(games::id)).offset(0),
            )),
        };
        q = q.filter(passed);
    }
    // Tags are only ever the searcher's own.
    let me = viewer.unwrap_or(-1);
    for tag in &s.tags {
        q = q.filter(
            games::id.eq_any(
                game_tags::table
                    .filter(game_tags::user_id.eq(me))
                    .filter(game_tags::tag.eq(tag.as_str()))
                    .select(game_tags::game_id),
            ),
        );
    }
    q
}

fn ordered(q: Filtered<'_>, sort: Sort) -> Filtered<'_> {
    // NULLs sort differently on the two backends: order by IS NULL first to agree.
    match sort {
        Sort::Finished => q
            .order_by(games::finished_at.is_null().asc())
            .then_order_by(games::finished_at.desc())
            .then_order_by(games::id.desc()),
        Sort::TimeLeft => q
            .order_by(games::status.ne("started").asc())
            .then_order_by(games::deadline_at.is_null().asc())
            .then_order_by(games::deadline_at.asc())
            .then_order_by(games::id.desc()),
    }
}

/// How many games a search counts, read as cheaply as its filters allow: a search by a
/// position alone (in its variant) counts the games in the book's covering index, without
/// reading the games; every other search counts the games it filters. The two agree, since
/// the book holds the finished games only, each with the variant it was played in, and
/// every book row belongs to a game (the rows go with it).
fn count_matching(
    conn: &mut DbConnection,
    s: &Search,
    viewer: Option<i64>,
    players: &Players,
) -> QueryResult<i64> {
    match by_position_alone(s) {
        Some((variant, key)) => book_moves::table
            .filter(book_moves::variant.eq(variant))
            .filter(book_moves::position.eq(key))
            .select(diesel::dsl::count(book_moves::game_id).aggregate_distinct())
            .get_result(conn),
        None => filtered(s, viewer, players, Read::Gather)
            .count()
            .get_result(conn),
    }
}

/// The variant and position of a search that filters by those alone.
fn by_position_alone(s: &Search) -> Option<(&'static str, &str)> {
    let key = s.position.as_deref()?;
    let variant = s.variant.unwrap_or(Variant::Standard).as_str();
    let alone = s.player.is_none()
        && s.opponent.is_none()
        && s.variant_name.is_none_or(|v| v == variant)
        && s.result.is_none()
        && s.status.is_none_or(|st| st == "finished")
        && s.rated.is_none()
        && s.tags.is_empty()
        && s.started.from.is_none()
        && s.started.until.is_none()
        && s.finished.from.is_none()
        && s.finished.until.is_none();
    alone.then_some((variant, key))
}

fn nothing_can_match(s: &Search, viewer: Option<i64>, players: &Players) -> bool {
    !players.unknown.is_empty() || (!s.tags.is_empty() && viewer.is_none())
}

/// One page of the games matching a search, with the total count.
pub fn search_games(
    conn: &mut DbConnection,
    viewer: Option<i64>,
    s: &Search,
) -> QueryResult<SearchResults> {
    crate::db::read_planned_for_values(conn, |conn| {
        let players = find_players(conn, s)?;
        let mut results = SearchResults {
            total: 0,
            page: s.page,
            per_page: s.per_page,
            games: Vec::new(),
            unknown_players: players.unknown.clone(),
        };
        if nothing_can_match(s, viewer, &players) {
            return Ok(results);
        }
        results.total = count_matching(conn, s, viewer, &players)?;
        let offset = i64::from(s.page - 1) * i64::from(s.per_page);
        let read = page_read(conn, s, results.total, offset + i64::from(s.per_page))?;
        let rows: Vec<Game> = ordered(filtered(s, viewer, &players, read), s.sort)
            .select(Game::as_select())
            .limit(i64::from(s.per_page))
            .offset(offset)
            .load(conn)?;
        let ids: Vec<i64> = rows.iter().map(|g| g.id).collect();
        let names = crate::game::player_names(conn, &ids)?;
        let mut tags = match viewer {
            Some(me) => my_tags_on(conn, me, &ids)?,
            None => Default::default(),
        };
        results.games = rows
            .into_iter()
            .map(|game| FoundGame {
                white: names.of(game.id, "white"),
                black: names.of(game.id, "black"),
                white_name: names.shown(game.id, "white"),
                black_name: names.shown(game.id, "black"),
                tags: tags.remove(&game.id).unwrap_or_default(),
                game,
            })
            .collect();
        Ok(results)
    })
}

/// How many games match a search (paging ignored).
pub fn matching_count(
    conn: &mut DbConnection,
    viewer: Option<i64>,
    s: &Search,
) -> QueryResult<i64> {
    crate::db::read_planned_for_values(conn, |conn| {
        let players = find_players(conn, s)?;
        if nothing_can_match(s, viewer, &players) {
            return Ok(0);
        }
        count_matching(conn, s, viewer, &players)
    })
}

/// Where a batch of a bulk export ended: the sort key of its last game.
#[derive(Clone, Copy, Debug)]
pub struct Cursor {
    id: i64,
    running: bool,
    finished_at: Option<NaiveDateTime>,
    deadline_at: Option<NaiveDateTime>,
}

/// One batch of a bulk export: the ids of at most `limit` games matching a search, in its
/// order (paging ignored), after `after` (from the first for `None`), and the cursor of the
/// last one. The next batch starts after that cursor, so each batch costs the same however far
/// the export has come, and games that change meanwhile shift nothing already sent.
pub fn matching_ids_after(
    conn: &mut DbConnection,
    viewer: Option<i64>,
    s: &Search,
    after: Option<Cursor>,
    limit: i64,
) -> QueryResult<(Vec<i64>, Option<Cursor>)> {
    let rows: Vec<(i64, String, Option<NaiveDateTime>, Option<NaiveDateTime>)> =
        crate::db::read_planned_for_values(conn, |conn| {
            let players = find_players(conn, s)?;
            if nothing_can_match(s, viewer, &players) {
                return Ok(Vec::new());
            }
            let mut q = filtered(s, viewer, &players, Read::Gather);
            if let Some(c) = after {
                q = after_cursor(q, s.sort, c);
            }
            ordered(q, s.sort)
                .select((
                    games::id,
                    games::status,
                    games::finished_at,
                    games::deadline_at,
                ))
                .limit(limit)
                .load(conn)
        })?;
    let cursor = rows
        .last()
        .map(|(id, status, finished_at, deadline_at)| Cursor {
            id: *id,
            running: status == "started",
            finished_at: *finished_at,
            deadline_at: *deadline_at,
        });
    Ok((rows.into_iter().map(|r| r.0).collect(), cursor))
}

/// The games after `c` in the order `sort` (see `ordered`): a later group, or the same group and
/// a later time, or the same time and a smaller id.
fn after_cursor(q: Filtered<'_>, sort: Sort, c: Cursor) -> Filtered<'_> {
    match sort {
        // Finished games (finished_at descending), then the others; ids descending within.
        Sort::Finished => match c.finished_at {
            Some(f) => q.filter(
                games::finished_at
                    .is_null()
                    .or(games::finished_at.assume_not_null().lt(f))
                    .or(games::finished_at
                        .assume_not_null()
                        .eq(f)
                        .and(games::id.lt(c.id))),
            ),
            None => q.filter(games::finished_at.is_null().and(games::id.lt(c.id))),
        },
        // Running games first, then the others; within each, deadlines ascending with the
        // games without one last, ids descending within.
        Sort::TimeLeft => {
            let later_in_group = match c.deadline_at {
                Some(d) => Box::new(
                    games::deadline_at
                        .is_null()
                        .or(games::deadline_at.assume_not_null().gt(d))
                        .or(games::deadline_at
                            .assume_not_null()
                            .eq(d)
                            .and(games::id.lt(c.id))),
                )
                    as Box<
                        dyn BoxableExpression<
                                games::table,
                                MultiBackend,
                                SqlType = diesel::sql_types::Bool,
                            >,
                    >,
                None => Box::new(games::deadline_at.is_null().and(games::id.lt(c.id))),
            };
            if c.running {
                q.filter(
                    games::status
                        .eq("started")
                        .and(later_in_group)
                        .or(games::status.ne("started")),
                )
            } else {
                q.filter(games::status.ne("started").and(later_in_group))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(query: &str) -> Result<Search, SearchError> {
        SearchParams::from_query(query)?.check(true)
    }

    #[test]
    fn empty_search_is_everything_newest_finished_first() {
        let s = params("").unwrap();
        assert_eq!((s.page, s.per_page, s.sort), (1, 50, Sort::Finished));
        assert!(s.player.is_none() && s.tags.is_empty());
    }

    #[test]
    fn fields_are_read_and_normalised() {
        let s = params("player=Alice&color=black&result=draw&rated=yes&variant=Atomic&tags=Opening,+trap&finished_to=2026-03-01&sort=time_left").unwrap();
        assert_eq!(s.player.as_deref(), Some("alice"));
        assert_eq!(s.color, Some(Color::Black));
        assert_eq!(s.result, Some("1/2-1/2"));
        assert_eq!(s.rated, Some(true));
        assert_eq!(s.variant, Some(Variant::Atomic));
        assert_eq!(s.tags, vec!["opening", "trap"]);
        assert_eq!(
            s.finished.until.unwrap().to_string(),
            "2026-03-02 00:00:00",
            "the end date is included"
        );
        assert_eq!(s.sort, Sort::TimeLeft);
    }

    #[test]
    fn an_opponent_alone_is_a_player_of_the_other_colour() {
        let s = params("opponent=bob&color=white").unwrap();
        assert_eq!(s.player.as_deref(), Some("bob"));
        assert_eq!(s.color, Some(Color::Black));
        assert!(s.opponent.is_none());
    }

    #[test]
    fn bad_input_is_refused_with_a_reason() {
        for (q, want) in [
            ("started_from=yesterday", "started from must be a date"),
            ("finished_to=2026-02-30", "finished to must be a date"),
            ("variant=tiddlywinks", "unknown variant"),
            ("page=0", "page must be"),
            ("page=99999999999", "page must be"),
            ("per_page=500", "per_page must be"),
            ("result=2-0", "result must be"),
            ("status=paused", "status must be"),
            ("rated=maybe", "rated must be"),
            ("sort=random", "sort must be"),
            ("color=green", "colour must be"),
            ("player=a%20b", "is not a username"),
            ("player=bob&opponent=BOB", "two different players"),
            ("tags=a/b", "is not one"),
            ("tags=a+b+c+d+e+f", "at most 5 tags"),
            ("started_from=2026-03-05&started_to=2026-03-01", "is after"),
            ("page=1&page=2", "could not be read"),
        ] {
            let err = params(q).expect_err(q).to_string();
            assert!(err.contains(want), "{q}: {err}");
        }
        let long = format!("player={}", "a".repeat(10_000));
        assert!(matches!(params(&long), Err(SearchError::TooLong)));
        let tags = SearchParams::from_query("tags=mine").unwrap();
        assert!(matches!(tags.check(false), Err(SearchError::TagsNeedLogin)));
    }

    #[test]
    fn links_keep_the_search_and_change_the_page() {
        let p = SearchParams::from_query("player=alice&status=finished&page=3").unwrap();
        assert_eq!(p.to_query(Some(4)), "player=alice&status=finished&page=4");
        assert_eq!(p.to_query(None), "player=alice&status=finished");
    }
}
