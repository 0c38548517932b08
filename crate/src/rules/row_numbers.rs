//! `missing-column` (row labels): a row number read as a label past the rows of a frame or
//! Series whose labels are its row numbers (`s[-1]`, `df['a'][5]` of 3 rows, `df.loc[3]`,
//! `s.at[-1]`): KeyError. An integer key selects by label wherever the labels are integers,
//! never by position; positions are `.iloc`'s.

use crate::codes::Rule;
use crate::diagnostic::{Diagnostic, Fix};
use crate::ir::{Expr, SeqKind, TextRange};
use crate::semantics::abstract_value::Val;
use crate::walker::state::Walker;

pub fn check(w: &Walker, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let Expr::Subscript { value, index, .. } = expr else {
        return;
    };
    // `s[k]`, `s.loc[k]`, `s.at[k]`, `df.loc[k]`, `df.loc[k, cols]`, `df.at[k, col]`.
    let (data, key, accessor) = match &**value {
        Expr::Attribute {
            value: data,
            attr,
            range,
        } if attr == "loc" || attr == "at" => {
            let key = match &**index {
                Expr::Seq {
                    kind: SeqKind::Tuple,
                    elts,
                    ..
                } if elts.len() == 2 => &elts[0],
                Expr::Seq { .. } => return,
                key => key,
            };
            let attr_range = TextRange::new(range.end.saturating_sub(attr.len() as u32), range.end);
            (&**data, key, Some((attr.as_str(), attr_range)))
        }
        data => (data, &**index, None),
    };
    let (rows, numbers) = match w.eval(data) {
        Val::Series(s) => (s.len, s.row_numbers),
        Val::Frame(f) if accessor.is_some() => (f.n_rows, f.row_numbers),
        _ => return,
    };
    let (Some(numbers), Val::Int(k)) = (numbers, w.eval(key)) else {
        return;
    };
    let rows = rows.filter(|_| numbers.all);
    if k >= 0 && rows.is_none_or(|n| k < n) {
        return;
    }
    let name = w.shown(data, "the data");
    let labels = match rows {
        Some(0) => "it has no rows".to_string(),
        Some(n) => format!("its labels are its row numbers, 0 to {}", n - 1),
        None => "its labels are row numbers, from 0".to_string(),
    };
    let mut d = Diagnostic::error(
        Rule::MissingColumn,
        format!(
            "{k} is not a row label of {name} ({labels}): KeyError: {k}; an integer selects by label, .iloc by position"
        ),
        key.range(),
    );
    d = match accessor {
        None => d.with_fix(Fix::replace(
            "Select by position: .iloc".to_string(),
            TextRange::new(data.range().end, data.range().end),
            ".iloc".to_string(),
        )),
        Some(("loc", range)) if std::ptr::eq(key, &**index) => d.with_fix(Fix::replace(
            "Select by position: .iloc".to_string(),
            range,
            "iloc".to_string(),
        )),
        _ => d,
    };
    if numbers.read {
        d.make_likely(
            "a file whose rows are longer than its header gives the frame its leading fields as labels",
        );
    }
    out.push(d);
}
