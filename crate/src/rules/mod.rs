//! The deterministic rule engine: predicts crashes from the target cell's code and the kernel
//! summaries. A rule fires only when the crash is certain; whatever is unknown is silence.
//!
//! Checks only: one unit per code or family, registered in `AllRules`. The walker
//! (`crate::walker`) follows the cell's statements in execution order with an abstract value per
//! name (`crate::semantics::abstract_value::Val`) and reports every statement and expression that
//! will certainly be evaluated through `walker::Checks`; `AllRules` hands each report to the units.

pub mod api;
pub mod columns;
pub mod dropped_again;
pub mod frames;
pub mod in_place_casts;
pub mod join;
pub mod keras;
pub mod keras_arguments;
pub mod keras_identifiers;
pub mod keras_utils;
pub mod module_attributes;
pub mod numpy_calls;
pub mod numpy_text;
pub mod pandas_mappers;
pub mod pandas_options;
pub mod plots;
pub mod positional_indexers;
pub mod pytypes;
pub mod row_numbers;
pub mod shapes;
pub mod sklearn;
pub mod subscripted_methods;
pub mod targets;
pub mod tf_dtypes;
pub mod torch;
pub mod truth;
pub mod value_checks;
pub mod zero_division;

use crate::diagnostic::Diagnostic;
pub use crate::did_you_mean::suggest;
use crate::ir::{Expr, Stmt};
use crate::semantics::numpy::Release;
pub use crate::walker::RuleContext;
use crate::walker::{CellGlobals, Checks, Walker};

/// Runs every rule on the target cell; diagnostics come sorted by position.
pub fn run(ctx: &RuleContext) -> Vec<Diagnostic> {
    run_keeping_globals(ctx).0
}

/// `run`, and what the cell leaves in the globals (`walker::globals_after`), from the same walk.
pub fn run_keeping_globals(ctx: &RuleContext) -> (Vec<Diagnostic>, CellGlobals) {
    let (mut out, globals) = Walker::new(ctx, &AllRules).run_keeping_globals();
    out.sort_by_key(|d| (d.range.start, d.range.end));
    out.dedup_by(|a, b| a.code == b.code && a.range == b.range);
    (out, globals)
}

/// Every rule unit, in the order the walker's reports reach them.
struct AllRules;

impl Checks for AllRules {
    fn statement(&self, w: &Walker, stmt: &Stmt, out: &mut Vec<Diagnostic>) {
        pytypes::check_stmt(w, stmt, out);
        module_attributes::check_stmt(w, stmt, out);
        in_place_casts::check_stmt(w, stmt, out);
        shapes::check_stmt(w, stmt, out);
        frames::check_stmt(w, stmt, out);
        truth::check_stmt(w, stmt, out);
        value_checks::check_stmt(w, stmt, out);
        zero_division::check_stmt(w, stmt, out);
    }

    fn expression(&self, w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
        dropped_again::check(w, expr, out);
        columns::check(w, expr, out);
        join::check(w, expr, out);
        sklearn::check(w, expr, out);
        targets::check(w, expr, out);
        shapes::check(w, expr, out);
        plots::check(w, expr, out);
        numpy_calls::check(w, expr, out);
        numpy_text::check(w, expr, out);
        in_place_casts::check(w, expr, out);
        frames::check(w, expr, out);
        pandas_options::check(w, expr, out);
        pandas_mappers::check(w, expr, out);
        positional_indexers::check(w, expr, out);
        row_numbers::check(w, expr, out);
        subscripted_methods::check(w, expr, out);
        truth::check(w, expr, out);
        value_checks::check(w, expr, out);
        api::check(w, expr, out);
        module_attributes::check(w, expr, out);
        pytypes::check(w, expr, out);
        keras::check(w, expr, out);
        keras_identifiers::check(w, expr, out);
        keras_arguments::check(w, expr, out);
        keras_utils::check(w, expr, out);
        torch::check(w, expr, out);
        torch::check_tensor_ops(w, expr, out);
        tf_dtypes::check(w, expr, out);
        zero_division::check(w, expr, out);
    }

    fn comprehension(&self, w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
        pytypes::check(w, expr, out);
    }
}

/// `'a', 'b', 'c', ... (N in all)` for messages.
pub fn list_preview(items: &[String], max: usize) -> String {
    let shown: Vec<String> = items.iter().take(max).map(|c| format!("'{c}'")).collect();
    if items.len() > max {
        format!("{}, ...", shown.join(", "))
    } else {
        shown.join(", ")
    }
}

/// The kernel's release of `library` as far as its summaries tell, and what says so: the
/// module's version (None: the release is exact); for pandas without one, a column or Series of
/// the `str` dtype, which pandas 1 never had (its text is `object`, its `StringDtype` prints
/// `string`), says 2 or later.
pub(crate) fn kernel_release(w: &Walker, library: &str) -> Option<(Release, Option<&'static str>)> {
    if let Some(release) = kernel_module_version(w, library) {
        return Some((release, None));
    }
    if library != "pandas" {
        return None;
    }
    let str_dtype = w.ctx.summaries?.objects.values().any(|o| {
        o.str_fact(crate::summary::Category::R, "dtype") == Some("str")
            || o.representation
                .get("dtypes")
                .and_then(|d| d.as_object())
                .is_some_and(|d| d.values().any(|t| t.as_str() == Some("str")))
    });
    str_dtype.then_some(((2, 0), Some("it holds columns of the str dtype")))
}

/// Where the kernel's release of a library stands against the releases a crash needs.
pub(crate) enum KernelRelease {
    /// Among them: `the kernel runs pandas 3.1`, for messages.
    Within(String),
    /// Another release: no crash.
    Outside,
    /// The kernel did not say: the crash is likely.
    Unknown,
}

/// Does the kernel run a release of `library` from `since` on (and before `until`)? A crash
/// that only such releases raise is certain, absent or likely accordingly.
pub(crate) fn kernel_release_within(
    w: &Walker,
    library: &str,
    since: Release,
    until: Option<Release>,
) -> KernelRelease {
    match kernel_release(w, library) {
        Some((release, bound)) if release >= since && until.is_none_or(|u| release < u) => {
            let (major, minor) = release;
            KernelRelease::Within(match bound {
                None => format!("the kernel runs {library} {major}.{minor}"),
                Some(why) => format!("the kernel runs {library} {major} or later ({why})"),
            })
        }
        Some(_) => KernelRelease::Outside,
        None => KernelRelease::Unknown,
    }
}

/// A diagnostic for what earlier releases of `library` had and the release `gone` removed (a
/// later one, `back`, may have brought it back), its `message` ending with `exception`: certain
/// when the kernel runs a release without it, none when it runs another, likely when it did not
/// say which.
pub(crate) fn removed_in_release(
    w: &Walker,
    library: &str,
    (gone, back): (Release, Option<Release>),
    message: &str,
    exception: &str,
    diagnostic: impl Fn(String) -> Diagnostic,
) -> Option<Diagnostic> {
    match kernel_release_within(w, library, gone, back) {
        KernelRelease::Within(kernel) => {
            Some(diagnostic(format!("{message}; {kernel}: {exception}")))
        }
        KernelRelease::Outside => None,
        KernelRelease::Unknown => {
            let mut d = diagnostic(format!("{message}: {exception}"));
            d.make_likely(&format!(
                "the kernel's {library} version is not known; earlier releases have it"
            ));
            Some(d)
        }
    }
}

/// The oldest release of `module` among the kernel's summaries of it (a name bound to the
/// module), as (major, minor); None when the kernel tells none or one we cannot read.
pub(crate) fn kernel_module_version(w: &Walker, module: &str) -> Option<(u32, u32)> {
    let summaries = w.ctx.summaries?;
    summaries
        .objects
        .values()
        .filter(|o| {
            let fact = |name| o.str_fact(crate::summary::Category::R, name);
            // A module, or an object of the library (an estimator says its library's version).
            (o.kind == "module" && fact("module") == Some(module))
                || fact("library") == Some(module)
        })
        .map(|o| {
            let mut parts = o
                .str_fact(crate::summary::Category::R, "version")?
                .split('.')
                .map(|p| p.parse::<u32>().ok());
            Some((parts.next()??, parts.next()??))
        })
        .collect::<Option<Vec<_>>>()?
        .into_iter()
        .min()
}
