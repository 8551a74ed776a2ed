//! Fuzz target: any bytes sent as the body of any API route that reads one, by a player of the
//! game involved, to the application built in process on a temporary SQLite database. The
//! first byte chooses the route, the second the sender and the content type, the rest is the
//! body. No answer may be a server failure (5xx) or a panic; every refusal (4xx) is the API's
//! JSON error with a message; every success is JSON, and the game it touched still opens whole
//! (its ply and its moves agree, its page answers). Each input starts from the same database:
//! four players with tokens, running atomic, crazyhouse, minesweeper and bughouse games, a
//! finished game and open challenges.

#![no_main]

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;

use actix_web::body::MessageBody;
use actix_web::dev::{Service, ServiceResponse};
use actix_web::http::{Method, StatusCode};
use actix_web::rt::SystemRunner;
use actix_web::{Error, test, web};
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};
use slowfuse_fuzz::Bench;

/// The players, by their place in [`World::tokens`].
const WHITE: usize = 0;
const BLACK: usize = 1;
const THIRD: usize = 2;
const FOURTH: usize = 3;

/// One route to send bodies to: its method and path, the two players who may send (the
/// second byte of an input chooses), and the game it acts on, if any.
struct Route {
    method: Method,
    path: String,
    senders: [usize; 2],
    game: Option<i64>,
}

/// What the inputs are sent into, made once per process: the runtime, the application (built
/// once, as a server's worker builds it) and its prepared database, the players' tokens.
struct World {
    runtime: SystemRunner,
    bench: Bench,
    app: Box<dyn Client>,
    tokens: Vec<String>,
    routes: Vec<Route>,
}

// Made before the first input (the `init` below): what the setup holds on to is not taken
// for a leak of an input.
thread_local! {
    static WORLD: RefCell<World> = RefCell::new(World::new());
}

fuzz_target!(init: WORLD.with(|_| ()), |data: &[u8]| {
    let Some((&[route, flags], body)) = data.split_first_chunk::<2>() else {
        return;
    };
    WORLD.with_borrow_mut(|world| world.send(route, flags, body));
});

/// LeakSanitizer's own suppressions, read when it starts: actix-router keeps the names in
/// each route's pattern for ever on purpose (`Box::leak`, once per route as the application is
/// built), which is no leak of an input.
#[unsafe(no_mangle)]
pub extern "C" fn __lsan_default_suppressions() -> *const std::ffi::c_char {
    c"leak:actix_router::resource::ResourceDef\n".as_ptr()
}

/// A request as the inputs send it: who (by token) and in what content type.
struct Sent {
    method: Method,
    path: String,
    token: Option<String>,
    content_type: &'static str,
    body: Vec<u8>,
}

/// An answer's status and body.
struct Answer {
    status: StatusCode,
    body: Vec<u8>,
}

impl Answer {
    fn json(&self) -> Option<Value> {
        serde_json::from_slice(&self.body).ok()
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// The application as the inputs reach it: one request at a time.
trait Client {
    fn call(&self, sent: Sent) -> Pin<Box<dyn Future<Output = Answer> + '_>>;
}

/// The application's service, built in process.
struct InProcess<S>(S);

impl<S, B> Client for InProcess<S>
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = Error>,
    B: MessageBody + 'static,
{
    /// Sends a request as a client would; an error that no handler turned into an answer is
    /// answered as the server answers it.
    fn call(&self, sent: Sent) -> Pin<Box<dyn Future<Output = Answer> + '_>> {
        let mut request = test::TestRequest::default()
            .method(sent.method)
            .uri(&sent.path)
            .insert_header(("content-type", sent.content_type))
            .insert_header(("x-request-id", "fuzz"))
            .set_payload(sent.body);
        if let Some(token) = sent.token {
            request = request.insert_header(("authorization", format!("Bearer {token}")));
        }
        let request = request.to_request();
        Box::pin(async move {
            let response = match test::try_call_service(&self.0, request).await {
                Ok(response) => response.map_into_boxed_body().into_parts().1,
                Err(error) => error.error_response(),
            };
            let status = response.status();
            let body = actix_web::body::to_bytes(response.into_body())
                .await
                .map(|b| b.to_vec())
                .unwrap_or_else(|_| panic!("the body of a {status} could not be read"));
            Answer { status, body }
        })
    }
}

impl World {
    fn new() -> World {
        let runtime = actix_web::rt::System::new();
        let mut bench = Bench::new();
        let data = web::Data::new(bench.state.clone());
        let app = slowfuse::startup::app(data, bench.key.clone());
        let app: Box<dyn Client> =
            runtime.block_on(async { Box::new(InProcess(test::init_service(app).await)) });
        let (tokens, routes) = runtime.block_on(prepare(&*app));
        bench.keep_as_start();
        World {
            runtime,
            bench,
            app,
            tokens,
            routes,
        }
    }

    /// Sends one input's body on the prepared database put back, and checks the answer.
    fn send(&mut self, route: u8, flags: u8, body: &[u8]) {
        let route = &self.routes[usize::from(route) % self.routes.len()];
        let sender = &self.tokens[route.senders[usize::from(flags & 1)]];
        // Mostly JSON from a player; sometimes another content type, or no token at all.
        let (content_type, token) = match (flags >> 1) % 4 {
            0 | 1 => ("application/json", Some(sender.clone())),
            2 => ("text/plain", Some(sender.clone())),
            _ => ("application/json", None),
        };
        let what = format!(
            "{} {} ({content_type}, token: {}) body {:?}",
            route.method,
            route.path,
            token.is_some(),
            String::from_utf8_lossy(&body[..body.len().min(400)])
        );
        let sent = Sent {
            method: route.method.clone(),
            path: route.path.clone(),
            token,
            content_type,
            body: body.to_vec(),
        };
        self.bench.restore();
        let app = &*self.app;
        self.runtime.block_on(async {
            let answer = app.call(sent).await;
            check(&answer, &what);
            if let (true, Some(game)) = (answer.status.is_success(), route.game) {
                check_game_whole(app, game, sender, &what).await;
            }
        });
    }
}

/// No server failure; a refusal is the API's JSON error with a message; a success is JSON.
fn check(answer: &Answer, what: &str) {
    let status = answer.status;
    assert!(
        !status.is_server_error(),
        "{what}: {status} {}",
        answer.text()
    );
    let json = answer.json();
    if status.is_client_error() {
        let message = json.as_ref().and_then(|j| j["error"].as_str());
        assert!(
            message.is_some_and(|m| !m.is_empty()),
            "{what}: a {status} that is not the API's JSON error with a message: {}",
            answer.text()
        );
    } else {
        assert!(
            json.is_some(),
            "{what}: {status} not JSON: {}",
            answer.text()
        );
    }
}

/// After a success, the game still reads whole through the API and its page opens.
async fn check_game_whole(app: &dyn Client, game: i64, token: &str, what: &str) {
    let read = |path: String, token: Option<&str>| Sent {
        method: Method::GET,
        path,
        token: token.map(str::to_string),
        content_type: "application/json",
        body: Vec::new(),
    };
    let answer = app
        .call(read(format!("/api/v1/games/{game}"), Some(token)))
        .await;
    assert_eq!(
        answer.status,
        StatusCode::OK,
        "{what}: then the game: {}",
        answer.text()
    );
    let json = answer.json().expect("the game in JSON");
    if let (Some(moves), Some(ply)) = (json["moves"].as_array(), json["ply"].as_u64()) {
        assert_eq!(moves.len() as u64, ply, "{what}: then the game: {json}");
    }
    let page = app.call(read(format!("/games/{game}"), None)).await;
    assert_eq!(page.status, StatusCode::OK, "{what}: then the game's page");
}

/// A JSON body posted by the setup (with the token, unless empty), which must succeed; the
/// answer.
async fn post(app: &dyn Client, path: &str, token: &str, body: Value) -> Value {
    let sent = Sent {
        method: Method::POST,
        path: format!("/api/v1{path}"),
        token: (!token.is_empty()).then(|| token.to_string()),
        content_type: "application/json",
        body: serde_json::to_vec(&body).expect("JSON"),
    };
    let answer = app.call(sent).await;
    assert!(
        answer.status.is_success(),
        "setup: POST {path} {body}: {} {}",
        answer.status,
        answer.text()
    );
    answer.json().expect("a JSON answer")
}

/// What the setup made: the games and challenges that the routes name.
struct Made {
    atomic: i64,
    crazyhouse: i64,
    mines: i64,
    finished: i64,
    bughouse: i64,
    open: i64,
    open_seats: i64,
}

/// Makes the players and their games through the API; their tokens, and the routes to send
/// bodies to.
async fn prepare(app: &dyn Client) -> (Vec<String>, Vec<Route>) {
    let mut tokens = Vec::new();
    for name in ["fuzzwhite", "fuzzblack", "fuzzthird", "fuzzfourth"] {
        let password = "correct horse battery";
        let email = format!("{name}@example.com");
        let account = json!({"username": name, "email": email, "password": password});
        post(app, "/accounts", "", account).await;
        let login = json!({"username": name, "password": password});
        let token = post(app, "/tokens", "", login).await;
        tokens.push(token["token"].as_str().expect("a token").to_string());
    }
    let made = make_games(app, &tokens).await;
    (tokens, routes(&made))
}

/// An atomic game at its third ply, a crazyhouse game at its fourth (Black to take back a
/// pawn, White with one in hand), a minesweeper game in its setup, a finished game, a bughouse
/// match, and two open challenges (atomic, and bughouse with a seat taken).
async fn make_games(app: &dyn Client, tokens: &[String]) -> Made {
    let [white, black, third, fourth] = [WHITE, BLACK, THIRD, FOURTH].map(|p| tokens[p].as_str());
    let challenge =
        |variant: &str| json!({"variant": variant, "color": "white", "days_per_move": 3});
    let mut games = Vec::new();
    for variant in ["atomic", "crazyhouse", "minesweeper", "standard"] {
        let id = post(app, "/challenges", white, challenge(variant)).await["id"].clone();
        let game = post(app, &format!("/challenges/{id}/accept"), black, json!({})).await;
        games.push(game["game_id"].as_i64().expect("a game id"));
    }
    let [atomic, crazyhouse, mines, finished] = [games[0], games[1], games[2], games[3]];
    let plays = [
        (atomic, 0, "e4", white),
        (atomic, 1, "e5", black),
        (crazyhouse, 0, "e4", white),
        (crazyhouse, 1, "d5", black),
        (crazyhouse, 2, "exd5", white),
    ];
    for (game, ply, mv, token) in plays {
        let body = json!({"move": mv, "ply": ply});
        post(app, &format!("/games/{game}/moves"), token, body).await;
    }
    let resign = json!({"action": "resign", "ply": 0});
    post(app, &format!("/games/{finished}/actions"), black, resign).await;
    let open = post(app, "/challenges", white, challenge("atomic")).await["id"].as_i64();
    let seated = json!({"variant": "bughouse", "seat": "A1", "days_per_move": 3});
    let id = post(app, "/challenges", white, seated.clone()).await["id"].clone();
    let mut bughouse = None;
    for (token, seat) in [(black, "B1"), (third, "B2"), (fourth, "A2")] {
        let path = format!("/challenges/{id}/accept");
        bughouse = post(app, &path, token, json!({"seat": seat})).await["game_id"].as_i64();
    }
    let open_seats = post(app, "/challenges", white, seated).await["id"].as_i64();
    Made {
        atomic,
        crazyhouse,
        mines,
        finished,
        bughouse: bughouse.expect("the fourth seat starts the match"),
        open: open.expect("a challenge id"),
        open_seats: open_seats.expect("a challenge id"),
    }
}

/// Every API route that reads a body (`POST` and `PUT`; the `DELETE`s read none), in the
/// order the first byte of an input picks them (the files of `seeds/api_body` start with their
/// place); the game routes once for each kind of game they act differently on.
fn routes(m: &Made) -> Vec<Route> {
    let (post, put, pair) = (Method::POST, Method::PUT, [WHITE, BLACK]);
    let plain = |method: &Method, path: &str, senders| Route {
        method: method.clone(),
        path: format!("/api/v1{path}"),
        senders,
        game: None,
    };
    let on = |method: &Method, game: i64, rest: &str, senders| Route {
        method: method.clone(),
        path: format!("/api/v1/games/{game}{rest}"),
        senders,
        game: Some(game),
    };
    let accept = |id: i64| format!("/challenges/{id}/accept");
    vec![
        plain(&post, "/accounts", pair),
        plain(&post, "/tokens", pair),
        plain(&post, "/challenges", pair),
        plain(&post, &accept(m.open), [BLACK, THIRD]),
        plain(&post, &format!("/challenges/{}/cancel", m.open), pair),
        plain(&post, &accept(m.open_seats), [BLACK, THIRD]),
        plain(&post, "/computer-games", pair),
        on(&post, m.atomic, "/moves", pair),
        on(&post, m.crazyhouse, "/moves", [BLACK, WHITE]),
        on(&post, m.bughouse, "/moves", [WHITE, FOURTH]),
        on(&post, m.atomic, "/actions", [BLACK, WHITE]),
        on(&post, m.bughouse, "/actions", [THIRD, BLACK]),
        on(&post, m.finished, "/actions", [BLACK, THIRD]),
        on(&put, m.atomic, "/tags/fuzz", pair),
        on(&put, m.mines, "/bombs", pair),
        on(&put, m.atomic, "/analysis", pair),
        on(&post, m.finished, "/analysis/engine", pair),
        on(&put, m.atomic, "/notes", pair),
        on(&put, m.atomic, "/conditional", [BLACK, WHITE]),
        on(&put, m.crazyhouse, "/conditional", [WHITE, BLACK]),
        plain(&post, "/me/leave", pair),
        plain(&put, "/me/notifications", pair),
        plain(&post, "/positions/moves", pair),
        plain(&put, "/me/preferences", pair),
    ]
}
