fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("bench") {
        std::process::exit(cellguard::junobench::cli(&args[1..]));
    }
    eprintln!("usage: cellguard bench CASES.jsonl [--json OUT]");
    std::process::exit(2);
}
