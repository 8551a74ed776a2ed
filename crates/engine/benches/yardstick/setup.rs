//! What the yardstick needs from the machine: the package installed with npm, the programs, the load.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The package and version that hold Fairy-Stockfish 14 as WebAssembly.
pub const PACKAGE: &str = "@lichess-org/stockfish-web";
pub const PACKAGE_VERSION: &str = "0.5.0";

/// The package's folder, installed with npm when not there yet.
pub fn install(npm: &Path) -> Result<PathBuf, String> {
    let prefix = std::env::var_os("YARDSTICK_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("slowfuse-yardstick"));
    let package = prefix.join("node_modules").join(PACKAGE);
    let manifest = std::fs::read_to_string(package.join("package.json")).unwrap_or_default();
    let wanted = format!("\"version\": \"{PACKAGE_VERSION}\"");
    if manifest.contains(&wanted) && package.join("fsf_14.wasm").is_file() {
        return Ok(package);
    }
    std::fs::create_dir_all(&prefix).map_err(|e| format!("{}: {e}", prefix.display()))?;
    let status = Command::new(npm)
        .args(["install", "--no-audit", "--no-fund", "--prefix"])
        .arg(&prefix)
        .arg(format!("{PACKAGE}@{PACKAGE_VERSION}"))
        .stdout(std::process::Stdio::null())
        .status()
        .map_err(|e| format!("run npm: {e}"))?;
    if !status.success() || !package.join("fsf_14.wasm").is_file() {
        return Err(format!(
            "npm could not install {PACKAGE}@{PACKAGE_VERSION} ({status})"
        ));
    }
    Ok(package)
}

/// A program on `PATH`, by name.
pub fn find_program(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

/// A command's first line of output, or `?`.
pub fn first_line(program: &str, args: &[&str]) -> String {
    Command::new(program)
        .args(args)
        .output()
        .ok()
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .and_then(|text| text.lines().next().map(str::to_string))
        .unwrap_or_else(|| "?".into())
}

/// The load averages over 1, 5 and 15 minutes, or `?`.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|text| {
            text.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_else(|_| "?".into())
}
