fn main() -> std::process::ExitCode {
    cellguard::cli::run(std::env::args().skip(1).collect())
}
