use rustpython_parser::{ast, Parse};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let kind = &args[1];
    let n: usize = args[2].parse().unwrap();
    let src = match kind.as_str() {
        "sum" => format!("b = {}\n", vec!["a"; n].join("+")),
        "pow" => format!("b = {}\n", vec!["a"; n].join("**")),
        "list" => format!("x = {}{}\n", "[".repeat(n), "]".repeat(n)),
        "paren" => format!("x = {}1{}\n", "(".repeat(n), ")".repeat(n)),
        "call" => format!("x = {}1{}\n", "f(".repeat(n), ")".repeat(n)),
        "chain" => format!("df{}\n", ".dropna()".repeat(n)),
        "not" => format!("x = {}a\n", "not ".repeat(n)),
        "neg" => format!("x = {}a\n", "-".repeat(n)),
        "elif" => {
            let mut s = String::from("if x == 0:\n    y = 0\n");
            for i in 1..n {
                s += &format!("elif x == {i}:\n    y = {i}\n");
            }
            s
        }
        "if" => {
            let mut s = String::new();
            for i in 0..n {
                s += &" ".repeat(i);
                s += "if x:\n";
            }
            s += &" ".repeat(n);
            s += "pass\n";
            s
        }
        "lambda" => format!("x = {}1\n", "lambda: ".repeat(n)),
        "ifexp" => format!("x = {}1\n", "1 if c else ".repeat(n)),
        _ => panic!(),
    };
    let mode = args.get(3).map(String::as_str).unwrap_or("parse");
    let t = std::time::Instant::now();
    match mode {
        "parse" => {
            let r = ast::Suite::parse(&src, "<c>");
            eprintln!("parsed ok={} in {:?}", r.is_ok(), t.elapsed());
            std::mem::forget(r);
        }
        "drop" => {
            let r = ast::Suite::parse(&src, "<c>");
            eprintln!("parsed ok={} in {:?}", r.is_ok(), t.elapsed());
            drop(r);
            eprintln!("dropped");
        }
        _ => {
            let c = cellguard::python::parse_cell(&src);
            eprintln!("cell parsed in {:?}", t.elapsed());
            let f = cellguard::facts::cell_facts(&c.body);
            eprintln!("facts {:?}", t.elapsed());
            std::mem::forget(f);
            std::mem::forget(c);
        }
    }
}
