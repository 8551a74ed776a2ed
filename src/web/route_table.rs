//! The one table of routes: every route is added through [`Routes`], which registers it with
//! actix-web and lists it (method, pattern, who may use it), so the list cannot drift from what
//! the server answers. `web::route_table()` returns the list; `tests/app/authorization.rs` walks it.
//! Every `GET` route answers `HEAD` too (the same status and headers, no body), as uptime
//! checkers and link checkers expect.

use actix_web::http::Method;
use actix_web::{
    FromRequest, Handler, Resource, Responder, Route as ActixRoute, Scope, guard, web,
};

/// Who may use a route at all (what a player of the game may do beyond that is the use case's
/// business, checked there).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Anyone, visitors included.
    Public,
    /// A logged-in user: a session on the pages, a bearer token on the API.
    Account,
    /// A player of the game in the path (others are refused by the use case).
    Player,
    /// The operator: a scraper on this host or one holding `metrics.token`.
    Operator,
}

/// One route as registered: its method, its full path pattern (`/api/v1/games/{id}`) and who
/// may use it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    pub method: Method,
    pub pattern: String,
    pub access: Access,
}

/// Adds routes to an actix-web configuration and to the list at once.
pub struct Routes<'a> {
    cfg: &'a mut web::ServiceConfig,
    prefix: String,
    listed: &'a mut Vec<Route>,
}

impl<'a> Routes<'a> {
    /// Routes added at the root of `cfg`, listed into `listed`.
    pub fn new(cfg: &'a mut web::ServiceConfig, listed: &'a mut Vec<Route>) -> Routes<'a> {
        Routes {
            cfg,
            prefix: String::new(),
            listed,
        }
    }

    /// Registers `handler` for `method` on `path` (under this table's prefix).
    pub fn add<F, Args>(
        &mut self,
        method: Method,
        path: &str,
        access: Access,
        handler: F,
    ) -> &mut Self
    where
        F: Handler<Args>,
        Args: FromRequest + 'static,
        F::Output: Responder + 'static,
    {
        self.list(method.clone(), path, access);
        self.cfg.route(path, answering(method).to(handler));
        self
    }

    /// `add` for `GET`.
    pub fn get<F, Args>(&mut self, path: &str, access: Access, handler: F) -> &mut Self
    where
        F: Handler<Args>,
        Args: FromRequest + 'static,
        F::Output: Responder + 'static,
    {
        self.add(Method::GET, path, access, handler)
    }

    /// `add` for `POST`.
    pub fn post<F, Args>(&mut self, path: &str, access: Access, handler: F) -> &mut Self
    where
        F: Handler<Args>,
        Args: FromRequest + 'static,
        F::Output: Responder + 'static,
    {
        self.add(Method::POST, path, access, handler)
    }

    /// `add` for `PUT`.
    pub fn put<F, Args>(&mut self, path: &str, access: Access, handler: F) -> &mut Self
    where
        F: Handler<Args>,
        Args: FromRequest + 'static,
        F::Output: Responder + 'static,
    {
        self.add(Method::PUT, path, access, handler)
    }

    /// `add` for `DELETE`.
    pub fn delete<F, Args>(&mut self, path: &str, access: Access, handler: F) -> &mut Self
    where
        F: Handler<Args>,
        Args: FromRequest + 'static,
        F::Output: Responder + 'static,
    {
        self.add(Method::DELETE, path, access, handler)
    }

    /// One resource with several methods and settings of its own (`build` adds its
    /// `app_data`); a method it lacks is answered 405, as actix-web does for a resource.
    pub fn resource(
        &mut self,
        path: &str,
        build: impl FnOnce(Resource) -> Resource,
        routes: impl FnOnce(&mut ResourceRoutes),
    ) -> &mut Self {
        let mut methods = ResourceRoutes {
            resource: Some(build(web::resource(path))),
            listed: Vec::new(),
        };
        routes(&mut methods);
        for (method, access) in methods.listed {
            self.list(method, path, access);
        }
        self.cfg
            .service(methods.resource.expect("the resource is put back"));
        self
    }

    /// Routes under `prefix` in a scope of their own (`build` adds its `app_data` and default
    /// service).
    pub fn scope(
        &mut self,
        prefix: &str,
        build: impl FnOnce(Scope) -> Scope,
        routes: impl FnOnce(&mut Routes),
    ) -> &mut Self {
        let full = format!("{}{prefix}", self.prefix);
        let listed = &mut *self.listed;
        let scope = build(web::scope(prefix)).configure(|cfg| {
            routes(&mut Routes {
                cfg,
                prefix: full,
                listed,
            })
        });
        self.cfg.service(scope);
        self
    }

    /// Lets a module add its routes: `r.configure(export::routes)`.
    pub fn configure(&mut self, f: impl FnOnce(&mut Routes)) -> &mut Self {
        f(self);
        self
    }

    fn list(&mut self, method: Method, path: &str, access: Access) {
        self.listed.push(Route {
            method,
            pattern: format!("{}{path}", self.prefix),
            access,
        });
    }
}

/// The actix-web route of a listed method: `GET` also answers `HEAD` (actix-web sends no body
/// for a `HEAD`).
fn answering(method: Method) -> ActixRoute {
    if method == Method::GET {
        web::route().guard(guard::Any(guard::Get()).or(guard::Head()))
    } else {
        web::method(method)
    }
}

/// The methods of one resource (see [`Routes::resource`]).
pub struct ResourceRoutes {
    resource: Option<Resource>,
    listed: Vec<(Method, Access)>,
}

impl ResourceRoutes {
    /// Registers `handler` for `method` on the resource.
    pub fn add<F, Args>(&mut self, method: Method, access: Access, handler: F) -> &mut Self
    where
        F: Handler<Args>,
        Args: FromRequest + 'static,
        F::Output: Responder + 'static,
    {
        let resource = self.resource.take().expect("the resource is put back");
        self.resource = Some(resource.route(answering(method.clone()).to(handler)));
        self.listed.push((method, access));
        self
    }
}
