//! The files generated from the rule registry (crate/src/codes.rs) are committed; they must be
//! what the registry generates now, and every code the crate's sources emit is registered.

use std::path::Path;

use cellguard::codes::{self, Rule};

fn repo_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

#[test]
fn generated_files_are_up_to_date() {
    let root = repo_root();
    let read = |rel: &str| std::fs::read_to_string(root.join(rel)).unwrap();
    let files = codes::generated(&read(codes::README), &read(codes::SETTINGS_SCHEMA)).unwrap();
    let stale: Vec<&str> = files
        .iter()
        .filter(|(rel, content)| {
            std::fs::read_to_string(root.join(rel)).ok().as_ref() != Some(content)
        })
        .map(|(rel, _)| *rel)
        .collect();
    assert!(
        stale.is_empty(),
        "{stale:?} differ from the rule registry: run `cargo run -q -- rules --generate` at the repository root"
    );
}

#[test]
fn the_settings_schema_accepts_exactly_the_registered_codes() {
    let text = std::fs::read_to_string(repo_root().join(codes::SETTINGS_SCHEMA)).unwrap();
    let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
    let severities = &schema["properties"]["severities"];
    assert_eq!(severities["additionalProperties"], false);
    let listed: Vec<&str> = severities["properties"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut registered: Vec<&str> = Rule::ALL.iter().map(|r| r.code()).collect();
    registered.sort();
    let mut listed_sorted = listed.clone();
    listed_sorted.sort();
    assert_eq!(listed_sorted, registered);
}

/// The extension invents no diagnostic code of its own: every kebab-case `code: '...'` it writes
/// is registered (the compiler checks it too, `Diagnostic.code` being the core's `Code` type).
#[test]
fn the_extension_writes_no_code_the_registry_lacks() {
    let dir = repo_root().join("labextension/src");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        // Only the sources (`generated/` is a build output).
        if path.extension().is_none_or(|e| e != "ts") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for line in text.lines() {
            if let Some(at) = line.find("code: '") {
                let rest = &line[at + 7..];
                let code = &rest[..rest.find('\'').unwrap()];
                // Diagnostic codes are kebab-case (the server's error codes are snake_case).
                if !code.contains('-') {
                    continue;
                }
                assert!(
                    Rule::from_code(code).is_some(),
                    "{}: code '{code}' is not in crate/src/codes.rs",
                    path.display()
                );
            }
        }
    }
}

#[test]
fn every_rule_has_a_doc_with_two_examples() {
    for rule in Rule::ALL {
        let doc = rule.doc();
        for (what, text) in [
            ("catches", doc.catches),
            ("why", doc.why),
            ("crashing", doc.crashing),
            ("running", doc.running),
        ] {
            assert!(!text.trim().is_empty(), "{rule}: empty {what}");
        }
        assert_ne!(doc.crashing, doc.running, "{rule}");
        let text = codes::explain(*rule);
        assert!(
            text.starts_with(rule.code()) && text.contains(doc.crashing.lines().next().unwrap())
        );
    }
}
