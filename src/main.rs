//! The `slowfuse` binary.

fn main() -> anyhow::Result<()> {
    slowfuse::logging::init();
    slowfuse::cli::run()
}
