//! Snapshots of what the front end and the facts pass make of small cells in `tests/fixtures`.
//! Ranges are rendered as `line:column-line:column` (1-based) followed by the text they cover, so
//! that a reviewer can check them by eye.

use cellguard::facts::cell_facts;
use cellguard::position::LineIndex;
use cellguard::python::parse_cell;
use serde_json::{json, Value};

fn readable_ranges(value: Value, source: &str, index: &LineIndex) -> Value {
    match value {
        Value::Object(map) => {
            if let (Some(start), Some(end), 2) = (map.get("start"), map.get("end"), map.len()) {
                if let (Some(start), Some(end)) = (start.as_u64(), end.as_u64()) {
                    let (s, e) = (index.position(start as u32), index.position(end as u32));
                    let text = source
                        .get(start as usize..end as usize)
                        .unwrap_or("<not on char boundaries>");
                    return Value::String(format!(
                        "{}:{}-{}:{} `{}`",
                        s.line + 1,
                        s.column + 1,
                        e.line + 1,
                        e.column + 1,
                        text
                    ));
                }
            }
            Value::Object(
                map.into_iter()
                    .map(|(k, v)| (k, readable_ranges(v, source, index)))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(
            items
                .into_iter()
                .map(|v| readable_ranges(v, source, index))
                .collect(),
        ),
        other => other,
    }
}

fn analyse(fixture: &str) -> Value {
    let path = format!("{}/tests/fixtures/{fixture}", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(path).expect("fixture");
    let parsed = parse_cell(&source);
    let facts = cell_facts(&parsed.body);
    let report = json!({
        "syntax_error": parsed.syntax_error,
        "cell_magic": parsed.cell_magic,
        "statements": parsed.body.len(),
        "facts": facts,
    });
    readable_ranges(report, &source, &LineIndex::new(&source))
}

macro_rules! fixture_snapshots {
    ($($name:ident),* $(,)?) => {$(
        #[test]
        fn $name() {
            insta::assert_json_snapshot!(analyse(concat!(stringify!($name), ".py")));
        }
    )*};
}

fixture_snapshots!(
    accesses,
    cell_magic_bash,
    cell_magic_time,
    comprehensions,
    crlf,
    decorators,
    del_names,
    global_nonlocal,
    leading_indent,
    magics,
    python312_to_314,
    star_import,
    syntax_error_mid_edit,
    tabs_spaces,
    try_imports,
    unicode,
    unicode_name_escapes,
    walrus_match,
);
