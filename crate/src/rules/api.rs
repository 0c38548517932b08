//! API use.
//!
//! - `module-called`: calling a module (`import tqdm; tqdm(x)`): TypeError.
//! - `missing-attribute`: an attribute the live object lacks (the kernel looked it up), or one its
//!   type does not have (methods removed from Keras models, accessors a pandas `Categorical`
//!   lacks, pyplot functions that are Axes methods, what a plain numpy array lacks:
//!   `arr.append(x)`, `arr.head()`), and names the `numpy` module no longer has (`np.float`,
//!   `np.NaN`, `np.product`: certain when the kernel's numpy is at or past the release that removed
//!   them, likely when its version is not known).
//! - `bad-arguments`: a call whose arguments do not fit the function's signature (too many
//!   positional arguments, a parameter given twice, an unknown keyword, a missing one): the
//!   signature the kernel reads off the live callable, the notebook's own `def`, the signatures
//!   read off the installed scikit-learn, pandas and numpy (`semantics::signatures`; what is
//!   certain depends on the kernel's release: `table_call`), or a few written by hand.

use crate::semantics::properties::is_keras_model;
use crate::semantics::python::user_call_problem;
use crate::semantics::sklearn::removed_parameter;
use serde_json::Value;

use crate::codes::Rule;
use crate::diagnostic::{Diagnostic, Fix};
use crate::ir::{Expr, Keyword, Literal, Params, TextRange};
use crate::summary::{parameters, tuple_text, Category, ObjectSummary, ParameterKind};

use crate::ir_scan::unpacks;
use crate::semantics::abstract_value::{ArrayLib, Val};
use crate::semantics::attr_tables::{DATETIME_CLASS_ONLY, NDARRAY_ATTRIBUTES, PYPLOT_ONLY};
use crate::semantics::python::MODULE_MAIN_MEMBER;
use crate::semantics::signatures::{
    former_keyword, keyword_names, library_params, misspelled, parse_params, public_path,
    table_version, unknown_keyword_error,
};
use crate::walker::state::Walker;

/// Signatures of library callables the generated tables lack, in their notation
/// (`signatures::parse_params`), as documented for the release `assumed_version` names.
/// Parameters are given defaults where the documented call may leave them out.
fn hand_signature(path: &str) -> Option<&'static str> {
    if let Some(f) = path.strip_prefix("seaborn.") {
        return crate::semantics::matplotlib::seaborn_takes_data_first(f).then_some("data=,*,**");
    }
    match path {
        "matplotlib.pyplot.scatter" => {
            Some("x=,y=,s=,c=,marker=,cmap=,norm=,vmin=,vmax=,alpha=,linewidths=,*,**")
        }
        "sklearn.utils.class_weight.compute_class_weight"
        | "sklearn.utils.compute_class_weight" => Some("class_weight=,*,**"),
        "sklearn.utils.class_weight.compute_sample_weight"
        | "sklearn.utils.compute_sample_weight" => Some("class_weight=,y=,*,**"),
        _ => None,
    }
}

/// The library version whose signature `hand_signature(path)` describes.
fn assumed_version(path: &str) -> &'static str {
    match path.split('.').next() {
        Some("seaborn") => "seaborn 0.12 or later, where only data is positional",
        Some("matplotlib") => "matplotlib 3.x",
        _ => "scikit-learn 1.x",
    }
}

/// The table key of a called library callable: its public path (`pandas.read_csv`,
/// `sklearn.svm.SVC`), or `Class#method` for a method of a DataFrame, a Series or a scikit-learn
/// estimator the walker knows the object of.
fn table_key(w: &Walker, func: &Expr) -> Option<String> {
    if let Some(path) = w.lib_path(func) {
        // TensorFlow's `keras` is Keras itself since TensorFlow 2.16.
        let path = path.strip_prefix("tensorflow.").unwrap_or(&path);
        return Some(public_path(path));
    }
    if let Expr::Name { id, .. } = func {
        return w.certainly_builtin(id).then(|| format!("builtins.{id}"));
    }
    let Expr::Attribute { value, attr, .. } = func else {
        return None;
    };
    let class = match w.eval(value) {
        // A notebook that adds to pandas' classes may have replaced the method.
        Val::Frame(f) if f.plain && !w.pandas_extended => "pandas.DataFrame".to_string(),
        Val::Series(_) if !w.pandas_extended => "pandas.Series".to_string(),
        Val::Estimator(e) if e.type_path.starts_with("sklearn.") => public_path(&e.type_path),
        // Keras 3's models (`keras.src.models.`, as the kernel names them) and those the code
        // builds; not Keras 2's (`keras.engine.`, `keras.src.engine.`), whose methods differ.
        Val::Typed(t)
            if is_keras_model(&t)
                && (t.starts_with("keras.src.models.") || t.starts_with("keras.models.")) =>
        {
            "keras.Model".to_string()
        }
        _ => return None,
    };
    Some(format!("{class}#{attr}"))
}

/// `RandomForestClassifier`, `DataFrame.drop`, `read_csv`: a table key as messages name it.
fn shown_name(key: &str) -> String {
    match key.split_once('#') {
        Some((class, method)) => format!("{}.{method}", class.rsplit('.').next().unwrap_or(class)),
        None => key.rsplit('.').next().unwrap_or(key).to_string(),
    }
}

/// The version of `library` the kernel reported (a module's summary, or a callable's).
pub(crate) fn kernel_version<'w>(w: &'w Walker, library: &str) -> Option<&'w str> {
    w.ctx.summaries?.objects.values().find_map(|o| {
        let of = o
            .str_fact(Category::R, "module")
            .or_else(|| o.str_fact(Category::R, "library"))?;
        (of.split('.').next() == Some(library))
            .then(|| o.str_fact(Category::R, "version"))
            .flatten()
    })
}

/// Are two versions of one minor release (`3.1.1` and `3.1.2`)? The tables read off a library
/// hold for the kernel's release when it is.
pub(crate) fn same_minor_release(a: &str, b: &str) -> bool {
    fn minor(version: &str) -> &str {
        match version.match_indices('.').nth(1) {
            Some((i, _)) => &version[..i],
            None => version,
        }
    }
    minor(a) == minor(b)
}

/// A call of a callable of the generated signature tables (scikit-learn, pandas, numpy), or of a
/// method on an object the walker knows, that does not fit the installed library's signature.
/// `None` when the tables lack the callable; else what is found (possibly nothing).
///
/// A signature differs across releases, so what is certain depends on what the kernel showed:
/// - a keyword that misspells a parameter (`n_estimator`, `inplce`) and that no earlier release
///   had (`former_keyword`): certain whatever the release;
/// - any other misfit: certain when the kernel runs the release the table was read off (same
///   minor version), silent when it runs another, and likely when it did not say.
fn table_call(
    w: &Walker,
    func: &Expr,
    args: &[Expr],
    keywords: &[Keyword],
    range: TextRange,
) -> Option<Vec<Diagnostic>> {
    let key = table_key(w, func)?;
    // `est.set_params(...)` takes the constructor's parameters as keywords.
    let set_params = key.strip_suffix("#set_params");
    let mut p = library_params(set_params.unwrap_or(&key))?;
    if set_params.is_some() {
        let p = std::rc::Rc::make_mut(&mut p);
        // A pipeline, union or ensemble takes its steps' names too (`pipe.set_params(clf=...)`).
        let composite = ["steps", "transformers", "transformer_list", "estimators"];
        if p.kwarg || p.names.iter().any(|n| composite.contains(&n.as_str())) {
            return Some(vec![]);
        }
        p.keyword_only_required =
            vec![false; p.names.len() - usize::from(p.vararg) - usize::from(p.kwarg)];
        p.names.retain(|n| !n.starts_with('*'));
        p.positional = 0;
        p.positional_defaults = 0;
        p.posonly = 0;
        p.vararg = false;
    }
    let shown = shown_name(set_params.unwrap_or(&key));
    let (library, version) = table_version(&key);
    let kernel = kernel_version(w, library);
    // `set_params` raises ValueError, an invalid parameter of the estimator.
    let (rule, keyword_error) = if set_params.is_some() {
        (Rule::SklearnBadParams, "ValueError")
    } else if kernel.is_some_and(|v| v.split('.').next() != version.split('.').next()) {
        // Another major release may refuse a keyword otherwise (Keras 2's layers: TypeError).
        (Rule::BadArguments, "TypeError")
    } else {
        (Rule::BadArguments, unknown_keyword_error(&key))
    };
    // A keyword scikit-learn removed (`OneHotEncoder(sparse=False)`).
    if set_params.is_none() {
        for k in keywords {
            let Some(name) = k.name.as_deref() else {
                continue;
            };
            let Some((gone, instead)) = removed_parameter(&key, name) else {
                continue;
            };
            let message = format!(
                "{shown}() got an unexpected keyword argument '{name}': scikit-learn {}.{} and later lack it; use {instead}",
                gone.0, gone.1
            );
            let d =
                super::removed_in_release(w, "sklearn", (gone, None), &message, "TypeError", |m| {
                    Diagnostic::error(Rule::BadArguments, m, k.range)
                });
            return Some(d.into_iter().collect());
        }
    }
    for k in keywords {
        let Some(name) = k.name.as_deref() else {
            continue;
        };
        // `step__param` of a pipeline's step.
        if p.kwarg
            || keyword_names(&p).any(|n| n == name)
            || set_params.is_some() && name.contains("__")
        {
            continue;
        }
        // A keyword of the DataFrame method given to the Series one is the frames rule's.
        if let Some(method) = key.strip_prefix("pandas.Series#") {
            let frame = library_params(&format!("pandas.DataFrame#{method}"));
            if frame.is_some_and(|f| keyword_names(&f).any(|n| n == name)) {
                return Some(vec![]);
            }
        }
        if former_keyword(&key, name) {
            continue;
        }
        let Some(right) = misspelled(name, keyword_names(&p)) else {
            continue;
        };
        let name_range = TextRange::new(k.range.start, k.range.start + name.len() as u32);
        let what = if set_params.is_some() {
            format!("Invalid parameter '{name}' for estimator {shown}()")
        } else {
            format!("{shown}() got an unexpected keyword argument '{name}'")
        };
        return Some(vec![Diagnostic::error(
            rule,
            format!("{what}; did you mean '{right}'?: {keyword_error}"),
            k.range,
        )
        .with_fix(Fix::replace(
            format!("Use {right}="),
            name_range,
            right.to_string(),
        ))]);
    }
    let problem = if set_params.is_some() {
        keywords
            .iter()
            .filter_map(|k| k.name.as_deref())
            .find(|n| !n.contains("__") && !keyword_names(&p).any(|x| x == *n))
            .map(|n| format!("Invalid parameter '{n}' for estimator {shown}()"))
    } else {
        user_call_problem(&shown, &p, args, keywords)
    };
    let Some(problem) = problem else {
        return Some(vec![]);
    };
    // A builtin's positional arguments are `builtin-argument`'s (`python::BUILTIN_ARITY`).
    if key.starts_with("builtins.") && !problem.contains("keyword") {
        return Some(vec![]);
    }
    // Python binds the arguments first (TypeError); a Keras class refuses keywords after.
    let error = if set_params.is_some() || problem.contains("unexpected keyword argument") {
        keyword_error
    } else {
        "TypeError"
    };
    // A keyword of earlier releases: the notebook may have been written for one.
    let former = keywords
        .iter()
        .filter_map(|k| k.name.as_deref())
        .find(|n| former_keyword(&key, n));
    // A model of Keras 3's own classes (`keras.src.models.`, as the kernel names them): its
    // methods take the same keywords in every Keras 3 release.
    let keras3_model = key.starts_with("keras.Model#")
        && matches!(func, Expr::Attribute { value, .. }
            if matches!(w.eval(value), Val::Typed(t) if t.starts_with("keras.src.models.")));
    let same_release = match kernel {
        Some(v) => same_minor_release(v, version),
        None => keras3_model,
    };
    // Silent when the kernel runs another release, or the notebook may be written for one.
    if !same_release && (former.is_some() || kernel.is_some()) {
        return Some(vec![]);
    }
    let former = former
        .map(|n| format!("; '{n}' is a parameter of earlier {library} releases"))
        .unwrap_or_default();
    let mut d = Diagnostic::error(
        rule,
        format!("{problem}{former}: {error}"),
        problem_range(&p, args, keywords).unwrap_or(range),
    );
    match kernel {
        Some(v) => {
            d.message = format!("{problem}{former} (the kernel runs {library} {v}): {error}")
        }
        None if keras3_model => {}
        None => d.make_likely(&format!(
            "the signature of {library} {version}; the installed version is not known"
        )),
    }
    Some(vec![d])
}

/// The keyword `user_call_problem` reports, when it reports one: the first that the parameters
/// do not take, or that names a parameter a positional argument already filled.
fn problem_range(p: &Params, args: &[Expr], keywords: &[Keyword]) -> Option<TextRange> {
    if args.len() > p.positional && !p.vararg {
        return None;
    }
    keywords
        .iter()
        .find(|k| {
            let Some(name) = k.name.as_deref() else {
                return false;
            };
            match p.names[..p.positional].iter().position(|n| n == name) {
                Some(i) => i < p.posonly || i < args.len(),
                None => !p.kwarg && !keyword_names(p).any(|n| n == name),
            }
        })
        .map(|k| k.range)
}

/// The kernel's summary of what the dotted `path` holds, when the path is rooted at a name the
/// cell has not rebound (so the summary describes the object at this point), in the target cell.
fn kernel_summary<'w>(w: &'w Walker, path: &[&str]) -> Option<(String, &'w ObjectSummary)> {
    if !w.calls.is_empty() || w.bound_here.contains(*path.first()?) || w.rebound_all {
        return None;
    }
    let key = path.join(".");
    let obj = w.ctx.summaries?.objects.get(&key)?;
    Some((key, obj))
}

/// The parameters of a callable (or a class's constructor) the kernel summarized, unless a
/// decorator's wrapper stands in front of them (it shows the wrapped signature but may take other
/// calls).
fn kernel_params(obj: &ObjectSummary) -> Option<Params> {
    let facts = obj.facts(Category::R);
    if obj.error.is_some()
        || !matches!(obj.kind.as_str(), "callable" | "class")
        || facts.get("wrapped") != Some(&Value::Bool(false))
    {
        return None;
    }
    let mut p = Params::default();
    for param in parameters(facts.get("parameters")?)? {
        match param.kind {
            kind @ (ParameterKind::PositionalOnly | ParameterKind::PositionalOrKeyword) => {
                p.posonly += usize::from(kind == ParameterKind::PositionalOnly);
                p.positional += 1;
                p.positional_defaults += usize::from(param.has_default);
            }
            ParameterKind::VarPositional => p.vararg = true,
            ParameterKind::KeywordOnly => p.keyword_only_required.push(!param.has_default),
            ParameterKind::VarKeyword => p.kwarg = true,
        }
        p.names.push(param.name.to_string());
    }
    Some(p)
}

/// The kernel looked `value.attr` up on the live object and found nothing: a real lookup on a
/// library object or a class, or a module without a module `__getattr__` or whose own table of
/// removed names lists it (the kernel says "no loaded attribute" otherwise, and nothing is
/// certain). Only where nothing earlier in the cell mentions the object: a call such as `fit` may
/// add attributes.
fn kernel_missing_attribute(w: &Walker, value: &Expr, attr: &str) -> Option<String> {
    if matches!(w.eval(value), Val::Frame(_) | Val::Series(_)) {
        return None; // the column rules say more
    }
    let mut path = value.dotted_path()?;
    path.push(attr);
    let (key, obj) = kernel_summary(w, &path)?;
    let error = obj.missing_attribute(attr)?;
    let root = root_name(value)?;
    let first = w.ctx.facts.free_names.iter().find(|u| u.name == root.0)?;
    if first.range != root.1 {
        return None;
    }
    Some(format!(
        "{error} (the kernel looked up {key}): AttributeError"
    ))
}

/// The name at the root of `a.b.c`, with its range.
fn root_name(e: &Expr) -> Option<(&str, TextRange)> {
    match e {
        Expr::Name { id, range } => Some((id, *range)),
        Expr::Attribute { value, .. } => root_name(value),
        _ => None,
    }
}

/// `A(...)` of a plain class of the notebook, or `a.m(...)` of an instance of one, given
/// arguments the method does not take (`self` bound to the instance): why, in CPython's words.
fn notebook_class_call(
    w: &Walker,
    func: &Expr,
    args: &[Expr],
    keywords: &[Keyword],
) -> Option<String> {
    // The instance takes the method's first parameter.
    let with_self = || -> Vec<Expr> {
        std::iter::once(func.clone())
            .chain(args.iter().cloned())
            .collect()
    };
    match func {
        Expr::Name { .. } => {
            let class = w.notebook_class(func).filter(|c| c.plain())?;
            if let Some(p) = class.method("__init__") {
                return user_call_problem(
                    &format!("{}.__init__", class.name),
                    p,
                    &with_self(),
                    keywords,
                );
            }
            // `object.__init__` takes nothing.
            let given = !args.is_empty() || !keywords.is_empty();
            (given && !class.binds("__init__"))
                .then(|| format!("{}() takes no arguments", class.name))
        }
        Expr::Attribute { value, attr, .. } => {
            let Val::Instance(class) = w.eval(value) else {
                return None;
            };
            // An attribute stored on the instance would hide the method.
            if w.attribute_rewired(attr) || class.stored().contains(attr) {
                return None;
            }
            let p = class.method(attr)?;
            user_call_problem(&format!("{}.{attr}", class.name), p, &with_self(), keywords)
        }
        _ => None,
    }
}

/// Attributes a type certainly lacks, with a hint.
/// Keras 2's methods for data generators, which Keras 3 removed (its `fit`, `evaluate` and
/// `predict` take generators).
const KERAS_2_GENERATOR_METHODS: &[&str] =
    &["fit_generator", "evaluate_generator", "predict_generator"];

/// `model.fit_generator(...)`: AttributeError with Keras 3: certain for a model of Keras 3's
/// own classes (`keras.src.models.`, as the kernel names them) or when the kernel runs Keras 3,
/// likely when it did not say which Keras the model is of.
fn keras_generator_method(
    w: &Walker,
    value: &Expr,
    t: &str,
    attr: &str,
    range: TextRange,
) -> Option<Diagnostic> {
    let short_type = t.rsplit('.').next().unwrap_or(t);
    let message = |kernel: &str| {
        format!(
            "'{short_type}' object has no attribute '{attr}' ({} is a {short_type}): Keras 3 removed it{kernel}; fit, evaluate and predict take generators: AttributeError",
            w.shown(value, "the model")
        )
    };
    let error = |kernel: &str| Diagnostic::error(Rule::MissingAttribute, message(kernel), range);
    if t.starts_with("keras.src.models.") {
        return Some(error(""));
    }
    match super::kernel_release_within(w, "keras", (3, 0), None) {
        super::KernelRelease::Within(kernel) => Some(error(&format!(", and {kernel}"))),
        super::KernelRelease::Outside => None,
        super::KernelRelease::Unknown => {
            let mut d = error("");
            d.make_likely("the kernel's Keras version is not known; Keras 2 has it");
            Some(d)
        }
    }
}

fn missing_attribute(t: &str, attr: &str) -> Option<&'static str> {
    if is_keras_model(t) {
        return match attr {
            "predict_classes" => {
                Some("removed in TensorFlow 2.6; use np.argmax(model.predict(x), axis=-1)")
            }
            "predict_proba" => Some("removed in TensorFlow 2.6; use model.predict(x)"),
            "load" | "load_model" => Some("load a saved model with keras.models.load_model(path)"),
            _ => None,
        };
    }
    if t == "pandas.core.arrays.categorical.Categorical" {
        return match attr {
            "cat" => Some("a Categorical is not a Series: call its methods directly (data.rename_categories(...)), or wrap it in pd.Series"),
            "groupby" | "str" | "dt" | "loc" | "iloc" => Some("a Categorical is not a Series or DataFrame; wrap it in pd.Series or assign it to a frame column"),
            _ => None,
        };
    }
    None
}

fn pyplot_missing(attr: &str) -> Option<String> {
    match attr {
        "zlabel" => Some("pyplot has no zlabel; on a 3-D Axes use ax.set_zlabel(...)".into()),
        "set_xlabel" | "set_ylabel" | "set_title" | "set_xlim" | "set_ylim" | "set_xticks"
        | "set_yticks" | "set_xticklabels" | "set_yticklabels" | "set_zlabel" => {
            let base = attr.trim_start_matches("set_");
            Some(format!(
                "{attr} is an Axes method; pyplot has plt.{base}(...)"
            ))
        }
        _ => None,
    }
}

/// statsmodels' `qqplot(..., line=...)` accepts only '45', 's', 'r', 'q' or a false value.
fn statsmodels_line(
    w: &Walker,
    func: &Expr,
    keywords: &[crate::ir::Keyword],
) -> Option<Diagnostic> {
    let path = w.lib_path(func)?;
    if !path.starts_with("statsmodels.") || !path.ends_with(".qqplot") {
        return None;
    }
    let k = keywords
        .iter()
        .find(|k| k.name.as_deref() == Some("line"))?;
    let Expr::Literal { value, .. } = &k.value else {
        return None;
    };
    let shown = match value {
        Literal::Str(s) if matches!(s.as_str(), "45" | "s" | "r" | "q" | "") => return None,
        Literal::Str(s) => format!("'{s}'"),
        Literal::Int(i) if *i != 0 => i.to_string(),
        Literal::Float(f) if *f != 0.0 => f.to_string(),
        Literal::Bool(true) => "True".into(),
        _ => return None,
    };
    Some(Diagnostic::error(
        Rule::BadArguments,
        format!("qqplot's line must be one of '45', 's', 'r', 'q' or None, not {shown}{}: ValueError: option for line not understood",
            if matches!(value, Literal::Int(45)) { " (the string '45', not the number)" } else { "" }),
        k.range,
    ))
}

pub fn check(w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
    match expr {
        Expr::Attribute { value, attr, range } => {
            let attr_range = TextRange::new(range.end.saturating_sub(attr.len() as u32), range.end);
            if let Some(message) = kernel_missing_attribute(w, value, attr) {
                out.push(Diagnostic::error(
                    Rule::MissingAttribute,
                    message,
                    attr_range,
                ));
                return;
            }
            match w.eval(value) {
                Val::Typed(t)
                    if is_keras_model(&t) && KERAS_2_GENERATOR_METHODS.contains(&attr.as_str()) =>
                {
                    out.extend(keras_generator_method(w, value, &t, attr, attr_range));
                }
                Val::Typed(t) => {
                    if let Some(hint) = missing_attribute(&t, attr) {
                        let short_type = t.rsplit('.').next().unwrap_or(&t);
                        out.push(Diagnostic::error(
                            Rule::MissingAttribute,
                            format!("'{short_type}' object has no attribute '{attr}' ({} is a {short_type}); {hint}: AttributeError", w.shown(value, "the object")),
                            attr_range,
                        ));
                    }
                }
                Val::Instance(class) if !class.may_have(attr) && !w.attribute_rewired(attr) => {
                    let attributes: Vec<String> = class
                        .attributes()
                        .into_iter()
                        .filter(|a| !a.starts_with("__"))
                        .collect();
                    let known = if attributes.is_empty() {
                        format!("the class {} defines no attribute", class.name)
                    } else {
                        format!("its attributes: {}", super::list_preview(&attributes, 8))
                    };
                    let hint = super::suggest(attr, attributes.iter().map(String::as_str))
                        .map(|s| format!("; did you mean '{s}'?"))
                        .unwrap_or_default();
                    out.push(Diagnostic::error(
                        Rule::MissingAttribute,
                        format!(
                            "'{}' object has no attribute '{attr}' ({} is an instance of the notebook's class {}, {known}{hint}): AttributeError",
                            class.name,
                            w.shown(value, "the object"),
                            class.name
                        ),
                        attr_range,
                    ));
                }
                Val::Module(Some(m)) if m == "datetime" => {
                    if let Some((_, class)) = DATETIME_CLASS_ONLY.iter().find(|(a, _)| a == attr) {
                        out.push(Diagnostic::error(
                            Rule::MissingAttribute,
                            format!("module 'datetime' has no attribute '{attr}': {} is the module, and '{attr}' belongs to its class datetime.{class}; write datetime.{class}.{attr}, or import the class with from datetime import {class}: AttributeError", w.shown(value, "datetime")),
                            attr_range,
                        ));
                    }
                }
                Val::Module(Some(m))
                    if m == "matplotlib" && PYPLOT_ONLY.contains(&attr.as_str()) =>
                {
                    out.push(Diagnostic::error(
                        Rule::MissingAttribute,
                        format!("module 'matplotlib' has no attribute '{attr}': {} is the matplotlib package, and {attr} is a function of matplotlib.pyplot; import matplotlib.pyplot as plt and call plt.{attr}: AttributeError", w.shown(value, "matplotlib")),
                        attr_range,
                    ));
                }
                Val::Module(Some(m)) if m == "matplotlib.pyplot" => {
                    if let Some(hint) = pyplot_missing(attr) {
                        let mut d = Diagnostic::error(
                            Rule::MissingAttribute,
                            format!("module 'matplotlib.pyplot' has no attribute '{attr}'; {hint}: AttributeError"),
                            attr_range,
                        );
                        if attr.starts_with("set_") && attr != "set_zlabel" {
                            d = d.with_fix(Fix::replace(
                                format!("Use plt.{}", attr.trim_start_matches("set_")),
                                attr_range,
                                attr.trim_start_matches("set_").to_string(),
                            ));
                        }
                        out.push(d);
                    }
                }
                Val::Array(a)
                    if a.lib == ArrayLib::Numpy
                        && !a.shape.is_empty()
                        && !a.maybe_not_ndarray
                        && !NDARRAY_ATTRIBUTES.contains(&attr.as_str())
                        && !is_dunder(attr) =>
                {
                    out.push(Diagnostic::error(
                        Rule::MissingAttribute,
                        format!(
                            "'numpy.ndarray' object has no attribute '{attr}' ({} is a numpy array of shape {}){}: AttributeError",
                            w.shown(value, "the array"),
                            tuple_text(&a.shape),
                            ndarray_hint(attr)
                        ),
                        attr_range,
                    ));
                }
                _ => {}
            }
        }
        Expr::Call {
            func,
            args,
            keywords,
            range,
        } => {
            if let Expr::Name { id, .. } = &**func {
                if let Val::Module(m) = w.get(id) {
                    let what = m
                        .as_ref()
                        .map(|m| format!("the module '{m}'"))
                        .unwrap_or_else(|| "a module".into());
                    let member = m.as_deref().and_then(|m| {
                        MODULE_MAIN_MEMBER
                            .iter()
                            .find(|(module, _)| *module == m)
                            .map(|(_, member)| *member)
                    });
                    // The example names the module itself, not an alias of it (`import tqdm as t`).
                    let instead = match (member, m.as_deref()) {
                        (Some(member), Some(module)) => {
                            format!("call {id}.{member}(...), or import it with from {module} import {member}")
                        }
                        _ => format!("call a function or class inside it ({id}.name(...))"),
                    };
                    out.push(Diagnostic::error(
                        Rule::ModuleCalled,
                        format!("'{id}' is {what}, not a function or class; {instead}: TypeError: 'module' object is not callable"),
                        func.range(),
                    ));
                    return;
                }
            }
            if unpacks(args, keywords) {
                return;
            }
            if let Some(d) = statsmodels_line(w, func, keywords) {
                out.push(d);
                return;
            }
            // A function of the notebook, defined by a plain `def` and not rebound since.
            if let Expr::Name { id, .. } = &**func {
                if let Some(f) = w.user_function(id) {
                    if let Some(msg) = user_call_problem(id, f.params, args, keywords) {
                        out.push(Diagnostic::error(
                            Rule::BadArguments,
                            format!("{msg}: TypeError"),
                            *range,
                        ));
                    }
                    return;
                }
            }
            if let Some(msg) = notebook_class_call(w, func, args, keywords) {
                out.push(Diagnostic::error(
                    Rule::BadArguments,
                    format!("{msg}: TypeError"),
                    *range,
                ));
                return;
            }
            // A callable the kernel read the signature of.
            let summary = func.dotted_path().and_then(|path| kernel_summary(w, &path));
            if let Some((_, obj)) = summary {
                if let Some(p) = kernel_params(obj) {
                    let name = w.shown(func, "the function");
                    if let Some(msg) = user_call_problem(name, &p, args, keywords) {
                        let signature = obj
                            .str_fact(Category::R, "signature")
                            .filter(|s| s.len() <= 120)
                            .map(|s| format!(" (its signature in the kernel: {s})"))
                            .unwrap_or_default();
                        out.push(Diagnostic::error(
                            Rule::BadArguments,
                            format!("{msg}: TypeError{signature}"),
                            *range,
                        ));
                    }
                    return;
                }
            }
            // The kernel's summary of the callable, even one without a signature, knows better.
            if summary.is_none() {
                if let Some(found) = table_call(w, func, args, keywords, *range) {
                    out.extend(found);
                    return;
                }
            }
            let Some(path) = w.lib_path(func) else {
                return;
            };
            let Some(params) = hand_signature(&path) else {
                return;
            };
            let p = parse_params(params);
            let short_name = path.rsplit('.').next().unwrap_or(&path);
            if let Some(problem) = user_call_problem(short_name, &p, args, keywords) {
                let hint = if args.len() > p.positional {
                    "; pass the others by keyword"
                } else {
                    ""
                };
                let mut d = Diagnostic::error(
                    Rule::BadArguments,
                    format!("{problem}{hint}: TypeError"),
                    problem_range(&p, args, keywords).unwrap_or(*range),
                );
                d.make_likely(&format!(
                    "the signature of {}; the installed version is not known",
                    assumed_version(&path)
                ));
                out.push(d);
            }
        }
        _ => {}
    }
}

/// What to use instead of an attribute a numpy array lacks, for the names written expecting a
/// list, a DataFrame or a tensor.
fn ndarray_hint(attr: &str) -> &'static str {
    match attr {
        "append" | "extend" | "insert" | "remove" | "pop" => {
            "; arrays have a fixed size: np.append(arr, x) returns a new array, or collect a list and convert it once"
        }
        "head" | "tail" | "columns" | "iloc" | "loc" | "values" | "isnull" | "isna" | "fillna"
        | "dropna" | "value_counts" | "unique" | "groupby" | "apply" | "describe" | "info" => {
            "; it is not a pandas DataFrame or Series: wrap it with pd.DataFrame(...) or use numpy's functions"
        }
        "numpy" => "; it already is a numpy array",
        "detach" | "cpu" | "cuda" => "; it is a numpy array, not a torch tensor",
        "length" | "len" | "count" => "; use len(arr) or arr.size",
        _ => "",
    }
}

/// `__name__`: special attributes, which an object may define beyond its type's table.
fn is_dunder(attr: &str) -> bool {
    attr.starts_with("__") && attr.ends_with("__")
}
