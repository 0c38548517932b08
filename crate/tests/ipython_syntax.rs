//! Cells as IPython runs them (automagic, leading indentation, `%time`) and Python as CPython
//! reads it (3.12-3.14 syntax parses; what CPython refuses is a syntax error): each crash test has
//! a no-crash twin. Notebooks are checked top to bottom with `check_notebook`.

use cellguard::check::check_notebook;
use cellguard::diagnostic::Severities;

/// `(cell index, code, covered text)` of every diagnostic, checking the cells in order.
fn notebook(cells: &[&str]) -> Vec<(usize, &'static str, String)> {
    let cells: Vec<String> = cells.iter().map(|s| s.to_string()).collect();
    let order: Vec<usize> = (0..cells.len()).collect();
    check_notebook(&cells, &order, &Severities::new())
        .cells
        .into_iter()
        .flat_map(|(index, diagnostics)| {
            let source = cells[index].clone();
            diagnostics.into_iter().map(move |d| {
                let text = source[d.range.start as usize..d.range.end as usize].to_owned();
                (index, d.code.code(), text)
            })
        })
        .collect()
}

fn message_of(cell: &str) -> String {
    let cells = vec![cell.to_owned()];
    let report = check_notebook(&cells, &[0], &Severities::new());
    report.cells[0]
        .1
        .first()
        .map(|d| d.message.clone())
        .unwrap_or_default()
}

// ---------- automagic

#[test]
fn a_one_line_cell_naming_a_line_magic_runs_it() {
    for cell in [
        "pwd",
        "ls -la",
        "cd data",
        "pip install seaborn",
        "matplotlib inline",
        "pwd()",
    ] {
        assert_eq!(notebook(&[cell]), [], "{cell}");
    }
    assert_eq!(notebook(&["  cd ..\n"]), []);
}

#[test]
fn automagic_needs_a_one_line_cell() {
    // IPython applies automagic only to a cell that is one line: here `ls` is Python.
    assert_eq!(
        notebook(&["# list the files\nls"]),
        [(0, "undefined-name", "ls".to_owned())]
    );
    assert_eq!(
        notebook(&["ls\n\n"]),
        [(0, "undefined-name", "ls".to_owned())]
    );
}

#[test]
fn a_bound_name_shadows_the_magic() {
    assert_eq!(notebook(&["cd = 'data'", "cd"]), []);
    assert_eq!(
        notebook(&["cd = 'data'", "cd data"]),
        [(1, "syntax-error", "d".to_owned())]
    );
    // An assignment is never automagic.
    assert_eq!(notebook(&["ls = 1", "print(ls)"]), []);
}

#[test]
fn automagic_time_runs_its_statement() {
    assert_eq!(notebook(&["time x = 1", "print(x)"]), []);
    assert_eq!(
        notebook(&["time x = y", "print(x)"]),
        [(0, "undefined-name", "y".to_owned())]
    );
    // `import time` shadows the magic: the line is Python, and not valid.
    assert_eq!(
        notebook(&["import time", "time x = 1"])
            .iter()
            .map(|d| d.1)
            .collect::<Vec<_>>(),
        ["syntax-error"]
    );
}

#[test]
fn automagic_run_may_bind_anything() {
    assert_eq!(notebook(&["run prepare.py", "print(data)"]), []);
    assert_eq!(
        notebook(&["pwd", "print(data)"]),
        [(1, "undefined-name", "data".to_owned())]
    );
}

// ---------- leading indentation, %time

#[test]
fn a_cell_indented_as_a_whole_is_dedented_with_exact_positions() {
    assert_eq!(
        notebook(&["    x = 1\n    if x:\n        y = x + z\n"]),
        [(0, "undefined-name", "z".to_owned())]
    );
    assert_eq!(notebook(&["    x = 1\n    if x:\n        y = x + 1\n"]), []);
    // Only the first line's indentation goes: a later line indented alone is an error.
    assert_eq!(
        notebook(&["x = 1\n    y = 2"])
            .iter()
            .map(|d| d.1)
            .collect::<Vec<_>>(),
        ["syntax-error"]
    );
}

#[test]
fn time_magics_take_statements() {
    assert_eq!(notebook(&["xs = [1]", "%timeit -r1 for x in xs: pass"]), []);
    assert_eq!(notebook(&["%time y = 2", "print(y)"]), []);
    assert_eq!(
        notebook(&["%time y = w"]),
        [(0, "undefined-name", "w".to_owned())]
    );
}

// ---------- Python 3.12-3.14

#[test]
fn newer_python_parses_and_keeps_its_names() {
    let cells = [
        "d = {'a': 1}\nw = 3",
        "s = f\"{d[\"a\"]:>{w}}\"",
        "type Pair[T = int] = tuple[T, T]",
        "def first[T = int](xs: list[T]) -> T:\n    return xs[0]",
        "try:\n    first([])\nexcept IndexError, KeyError:\n    pass",
        "greeting = t'hello {s}'",
        "def pair[K = dict[str, int], V = int](k: K, v: V) -> tuple[K, V]:\n    return k, v",
        "try:\n    pair(1, 2)\nexcept* ValueError, KeyError:\n    pass",
        "class Box[T = int]:\n    item: T",
        "    lines = [1]\n    text = f'{'\\n'.join(map(str, lines))}'",
    ];
    assert_eq!(notebook(&cells), []);
    assert_eq!(
        notebook(&["s = f\"{e[\"a\"]}\""]),
        [(0, "undefined-name", "e".to_owned())]
    );
}

// ---------- what CPython refuses

#[test]
fn assignments_cpython_refuses_are_syntax_errors() {
    for (cell, covered, message) in [
        ("True = 5", "T", "cannot assign to True"),
        ("foo + bar = 5", "f", "cannot assign to expression"),
        ("f() = 1", "f", "cannot assign to function call"),
        ("x, 1 = y", "1", "cannot assign to literal"),
        ("del 1", "1", "cannot delete literal"),
        ("for f() in y: pass", "f", "cannot assign to function call"),
        ("with a as 1: pass", "1", "cannot assign to literal"),
        (
            "a, b += 1",
            "a",
            "'tuple' is an illegal expression for augmented assignment",
        ),
        (
            "*a = b",
            "*",
            "starred assignment target must be in a list or tuple",
        ),
        ("return 1", "r", "'return' outside function"),
        (
            "while x:\n    pass\nelse:\n    break",
            "b",
            "'break' outside loop",
        ),
    ] {
        assert_eq!(
            notebook(&[cell]),
            [(0, "syntax-error", covered.to_owned())],
            "{cell}"
        );
        assert_eq!(
            message_of(cell),
            format!("SyntaxError: {message}"),
            "{cell}"
        );
    }
}

#[test]
fn assignments_cpython_accepts_are_not_errors() {
    for cell in [
        "x = y = 5",
        "import os\nos.a = 5",
        "x = [1]\nx[0] = 5",
        "a, *b = [1, 2]",
        "[a, (b, c)] = 1, (2, 3)",
        "x = [1]\nx[0] += 1",
        "x: int = 1",
        "for i in range(3):\n    if i:\n        break\n    continue",
        "def f():\n    return 1",
        "class C:\n    def f(self):\n        return 1",
        "x = [1]\ndel x[0], x",
    ] {
        assert_eq!(notebook(&[cell]), [], "{cell}");
    }
}
