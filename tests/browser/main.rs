//! The pages in a real headless Chromium driven by chromedriver (WebDriver): drag and drop, the scripts, what JavaScript on and off shows; one module per area.

#[macro_use]
#[path = "../common/mod.rs"]
mod common;
#[path = "../webdriver/mod.rs"]
mod webdriver;

mod accessibility;
mod browser;
mod browser_bughouse;
mod browser_computer;
mod browser_csp;
mod browser_engine;
mod browser_home;
mod browser_minesweeper;
mod messages;
mod xss;
