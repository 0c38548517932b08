//! Undefined names against what ran, and the cells that would define them.

use cellguard::check::{check_cell, check_notebook, CheckInput};
use cellguard::diagnostic::{Severities, Severity};

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

fn check(
    cells: &[&str],
    target: usize,
    history: &[&str],
    kernel: Option<&[&str]>,
) -> Vec<(String, Vec<usize>, String)> {
    let cells = strings(cells);
    let history = strings(history);
    let kernel = kernel.map(strings);
    let report = check_cell(&CheckInput {
        cells: &cells,
        target_source: &cells[target],
        target_index: Some(target),
        history: &history,
        history_raised: &[],
        kernel_names: kernel.as_deref(),
        summaries: None,
        severities: &Severities::new(),
    });
    report
        .diagnostics
        .into_iter()
        .map(|d| {
            assert_eq!(d.severity, Severity::Error);
            let text = cells[target]
                .get(d.range.start as usize..d.range.end as usize)
                .unwrap_or_default()
                .to_owned();
            (
                d.code.to_string(),
                d.fix.map(|f| f.run_cells).unwrap_or_default(),
                text + ": " + &d.message,
            )
        })
        .collect()
}

#[test]
fn a_name_defined_by_a_cell_that_has_not_run_suggests_running_it() {
    let cells = [
        "import pandas as pd",
        "tf_idf = pd.DataFrame()",
        "tf_idf.head()",
    ];
    let found = check(&cells, 2, &["import pandas as pd"], None);
    assert_eq!(
        found,
        [(
            "undefined-name".to_owned(),
            vec![1],
            "tf_idf: `tf_idf` is not defined: no cell that ran defines it; the cell above defines it but has not run".to_owned()
        )]
    );
}

#[test]
fn names_from_history_builtins_and_ipython_are_defined() {
    let cells = [
        "x = 1",
        "print(len([x]), In, Out, _, _i, display, get_ipython(), __name__)",
    ];
    assert!(check(&cells, 1, &["x = 1"], None).is_empty());
}

#[test]
fn kernel_names_replace_the_history() {
    let cells = ["x = 1", "print(x)"];
    assert!(check(&cells, 1, &[], Some(&["x"])).is_empty());
    let found = check(&cells, 1, &["x = 1"], Some(&[]));
    assert_eq!(found.len(), 1);
    assert!(
        found[0]
            .2
            .contains("although the cell above defines it and ran"),
        "{found:?}"
    );
    assert_eq!(found[0].1, [0]);
}

#[test]
fn a_star_import_that_ran_makes_names_unknown() {
    let cells = ["from pylab import *", "plot(x)"];
    assert!(check(&cells, 1, &["from pylab import *"], None).is_empty());
    // With the kernel's names the star import's names are known: `x` is still undefined.
    assert_eq!(
        check(&cells, 1, &["from pylab import *"], Some(&["plot"])).len(),
        1
    );
}

#[test]
fn code_that_binds_names_unseen_makes_names_unknown() {
    for ran in [
        "%run helpers.py",
        "%store -r",
        "%pylab inline",
        "exec(open('setup.py').read())",
        "globals()['w'] = 1",
        "for n in ['w']:\n    globals()[n] = 0",
        "get_ipython().push({'w': 1})",
    ] {
        let cells = [ran, "print(w)"];
        let found = check(&cells, 1, &[ran], None);
        assert!(found.is_empty(), "after {ran:?}: {found:?}");
        // The offline view of a notebook (the CLI) agrees.
        let notebook = check_notebook(&strings(&cells), &[0, 1], &Severities::new()).cells;
        assert!(notebook[1].1.is_empty(), "after {ran:?}");
    }
    // Magics that bind nothing leave the namespace known.
    for ran in [
        "%matplotlib inline",
        "%load_ext autoreload",
        "%pip install seaborn",
        "matplotlib inline",
        "answer = eval(input())",
        "exec('v = 1')",
        "eval('(v := 1)')",
    ] {
        let cells = [ran, "print(w)"];
        assert_eq!(check(&cells, 1, &[ran], None).len(), 1, "after {ran:?}");
    }
}

/// The diagnostics on `read` after `ran` ran: with the history as the extension sees it, and as
/// the CLI replays the notebook.
fn diagnostics_after(ran: &str, read: &str) -> (usize, usize) {
    let cells = [ran, read];
    let replayed = check_notebook(&strings(&cells), &[0, 1], &Severities::new()).cells;
    (check(&cells, 1, &[ran], None).len(), replayed[1].1.len())
}

#[test]
fn functions_and_library_calls_that_bind_module_names_make_names_unknown() {
    // A function or class whose body writes module globals binds names wherever it is called
    // (the standard library's `re._constants`, `turtle`); a call handed the module's name may
    // bind names in it (`ssl`'s `IntEnum._convert_`).
    for defines in [
        "def make(*names):\n    globals().update({n: n for n in names})\nmake('LITERAL')",
        "def make(name):\n    exec(f'{name} = 1', globals())\nmake('LITERAL')",
        "class Names:\n    def bind(self):\n        get_ipython().push({'LITERAL': 1})",
        "bind = lambda: globals().update(LITERAL=1)\nbind()",
        "class Flags:\n    globals()['LITERAL'] = 1",
        "import enum\nenum.IntEnum._convert_('Op', __name__, lambda n: n.isupper())",
        "import sys\nsetattr(sys.modules[__name__], 'LITERAL', 1)",
        "import enum\n@enum.global_enum\nclass Flag(enum.IntFlag):\n    LITERAL = 1",
    ] {
        assert_eq!(
            diagnostics_after(defines, "print(LITERAL)"),
            (0, 0),
            "{defines:?}"
        );
        // In the same cell.
        let same = format!("{defines}\nprint(LITERAL)");
        assert_eq!(check(&[&same], 0, &[], Some(&[])), [], "{same:?}");
    }
    // Crash twins: a function's own namespace, a logger named after the module and builtins
    // given the module's name bind nothing in it; the name is still undefined.
    for defines in [
        "def show(*names):\n    print(locals(), vars())\nshow('LITERAL')",
        "import logging\nlog = logging.getLogger(__name__)",
        "print(__name__, len(__name__))",
        "make = lambda: locals()",
        "import enum\nclass Flag(enum.IntFlag):\n    LITERAL = 1",
    ] {
        assert_eq!(
            diagnostics_after(defines, "print(LITERAL)"),
            (1, 1),
            "{defines:?}"
        );
    }
}

#[test]
fn attributes_stored_on_main_or_builtins_and_binding_cell_magics_make_names_unknown() {
    for ran in [
        "import builtins\nbuiltins.helper = 1",
        "__builtins__.helper = 1",
        "import __main__\nsetattr(__main__, 'helper', 1)",
        "%%capture helper\nprint(1)",
        "%%sql helper <<\nSELECT 1",
        "%%bash --out helper\nls",
    ] {
        assert_eq!(diagnostics_after(ran, "print(helper)"), (0, 0), "{ran:?}");
    }
    // Twins: cell magics that bind nothing leave the namespace known.
    for ran in [
        "%%capture\nprint(1)",
        "%%bash\nls",
        "%%writefile helper.py\nhelper = 1",
        "%%time\nx = 1",
        "%%html\n<b>helper</b>",
    ] {
        assert_eq!(diagnostics_after(ran, "print(helper)"), (1, 1), "{ran:?}");
    }
}

#[test]
fn exec_of_a_literal_binds_what_it_binds_and_eval_only_walrus_targets() {
    for ran in ["exec('w = 1')", "exec('def w(): pass')", "eval('(w := 2)')"] {
        let cells = [ran, "print(w)"];
        assert_eq!(check(&cells, 1, &[ran], None), [], "after {ran:?}");
    }
    // Twin: `eval` of an assignment raises; it binds nothing.
    let cells = ["eval('w = 1')", "print(w)"];
    assert_eq!(check(&cells, 1, &[cells[0]], None).len(), 1);
}

#[test]
fn a_name_nobody_defines_has_no_fix() {
    let found = check(&["print(nowhere)"], 0, &[], None);
    assert_eq!(found[0].1, Vec::<usize>::new());
    assert!(found[0].2.ends_with("nor any cell of the notebook"));
}

#[test]
fn deleted_names_are_undefined_again() {
    let cells = ["tmp = 1", "del tmp", "print(tmp)"];
    let found = check(&cells, 2, &["tmp = 1", "del tmp"], None);
    assert_eq!(found.len(), 1, "{found:?}");
}

#[test]
fn a_syntax_error_is_the_only_diagnostic() {
    let found = check(&["print(undefined_name"], 0, &[], None);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].0, "syntax-error");
}

#[test]
fn syntax_errors_are_said_in_plain_words() {
    for (cell, words) in [
        (
            "for row in rows:\n",
            "a line ending with `:` needs an indented block below it",
        ),
        (
            "for row in rows:",
            "a line ending with `:` needs an indented block below it",
        ),
        ("total = sum((1, 2)", "a bracket, string or block left open"),
        (
            "if x:\n    y = 1\n  z = 2",
            "indentation matches no block above it",
        ),
        ("name = 'Sm", "a string is not closed"),
        ("total = 1 +* 2", "Python does not expect `'*'` here"),
    ] {
        let found = check(&[cell], 0, &[], Some(&["x", "rows"]));
        assert_eq!(found.len(), 1, "{cell:?}: {found:?}");
        assert!(found[0].2.contains(words), "{cell:?}: {found:?}");
    }
}

#[test]
fn reading_a_name_to_see_whether_it_is_defined_is_no_crash() {
    for cell in [
        "try:\n    cache\nexcept NameError:\n    cache = {}",
        "try:\n    print(cache)\nexcept (KeyError, NameError):\n    cache = {}",
        "try:\n    cache\nexcept:\n    cache = {}",
        "try:\n    cache\nexcept Exception:\n    cache = {}",
    ] {
        let found = check(&[cell], 0, &[], Some(&[]));
        assert!(found.is_empty(), "{cell:?}: {found:?}");
    }
    // A handler that cannot catch NameError: the read still crashes.
    let cell = "try:\n    cache\nexcept KeyError:\n    cache = {}";
    assert_eq!(check(&[cell], 0, &[], Some(&[])).len(), 1);
}

#[test]
fn a_cell_that_execs_code_may_define_what_it_reads() {
    let found = check(&["exec(\"dyn = 5\")\nprint(dyn)"], 0, &[], Some(&[]));
    assert!(found.is_empty(), "{found:?}");
    assert_eq!(check(&["print(dyn)"], 0, &[], Some(&[])).len(), 1);
}

#[test]
fn conditional_definitions_count() {
    let cells = [
        "try:\n    import ujson as json\nexcept ImportError:\n    json = None",
        "json.dumps({})",
    ];
    assert!(check(&cells, 1, &[cells[0]], None).is_empty());
}

#[test]
fn the_target_source_may_differ_from_its_cell() {
    let cells = strings(&["a = 1", "print(a)"]);
    let report = check_cell(&CheckInput {
        cells: &cells,
        target_source: "print(a, b)",
        target_index: Some(1),
        history: &strings(&["a = 1"]),
        history_raised: &[],
        kernel_names: None,
        summaries: None,
        severities: &Severities::new(),
    });
    assert_eq!(report.diagnostics.len(), 1);
    assert_eq!(report.facts.free_names.len(), 3);
}

#[test]
fn a_notebook_is_checked_in_the_given_order() {
    let cells = strings(&["y = x + 1", "x = 1", ""]);
    let top_to_bottom = check_notebook(&cells, &[0, 1], &Severities::new()).cells;
    assert_eq!(top_to_bottom[0].1.len(), 1);
    assert_eq!(top_to_bottom[0].1[0].fix.as_ref().unwrap().run_cells, [1]);
    assert!(top_to_bottom[1].1.is_empty());
    let executed = check_notebook(&cells, &[1, 0], &Severities::new()).cells;
    assert!(executed
        .iter()
        .all(|(_, diagnostics)| diagnostics.is_empty()));
}

#[test]
fn a_name_read_only_in_a_function_body_is_a_warning_until_the_function_runs() {
    let cells = [
        "class Net:\n    def __init__(self):\n        self.block = Block()",
        "class Block:\n    pass",
    ];
    let all = strings(&cells);
    let run = |target: &str| {
        check_cell(&CheckInput {
            cells: &all,
            target_source: target,
            target_index: Some(0),
            history: &[],
            history_raised: &[],
            kernel_names: None,
            summaries: None,
            severities: &Severities::new(),
        })
        .diagnostics
    };
    // Defining the class runs no method: a warning at the read, with the cell to run.
    let found = run(cells[0]);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].severity, Severity::Warning);
    assert_eq!(found[0].fix.as_ref().unwrap().run_cells, [1]);
    assert!(found[0].message.contains("NameError when it is called"));
    // Read at the top level as well: an error, pointed at the read that runs now.
    let target = format!("{}\nprint(Block)", cells[0]);
    let found = run(&target);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].severity, Severity::Error);
    let text = &target[found[0].range.start as usize..found[0].range.end as usize];
    assert_eq!(text, "Block");
    assert!(found[0].range.start as usize > cells[0].len());
}

#[test]
fn cells_are_named_by_their_place_relative_to_the_target() {
    use cellguard::order::cell_label;
    assert_eq!(cell_label(4, Some(5)), "the cell above");
    assert_eq!(cell_label(6, Some(5)), "the cell below");
    assert_eq!(cell_label(2, Some(5)), "the 3rd cell above");
    assert_eq!(cell_label(7, Some(5)), "the 2nd cell below");
    assert_eq!(cell_label(0, Some(21)), "the 21st cell above");
    assert_eq!(cell_label(0, Some(12)), "the 12th cell above");
    assert_eq!(cell_label(0, Some(111)), "the 111th cell above");
    // A target outside the notebook: its place from 1.
    assert_eq!(cell_label(3, None), "cell 4");
}

#[test]
fn several_defining_cells_are_listed_and_the_fix_runs_the_nearest_above() {
    let cells = ["x = 1", "print(x)", "x = 2", "x = 3", "x = 4", "x = 5"];
    let found = check(&cells[..3], 1, &[], None);
    assert_eq!(found.len(), 1);
    assert!(
        found[0]
            .2
            .contains("the cell above and the cell below define it but have not run"),
        "{found:?}"
    );
    assert_eq!(found[0].1, [0]);
    let found = check(&cells, 1, &[], None);
    assert!(
        found[0]
            .2
            .contains("5 cells define it (the cell above is the nearest)"),
        "{found:?}"
    );
}
