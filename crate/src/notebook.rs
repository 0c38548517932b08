//! Reading Jupyter notebooks (nbformat 4) from their JSON.

use serde_json::Value;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellKind {
    Code,
    /// Markdown and raw cells.
    Other,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    pub kind: CellKind,
    pub source: String,
    /// The `[n]` of a code cell that ran: the cell's, or else the one its outputs carry.
    pub execution_count: Option<u64>,
    /// The error the cell's saved output shows: it crashed when it last ran.
    pub error: Option<SavedError>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedError {
    /// The exception's name (`ename`).
    pub name: String,
    /// The cell's line (1-based) that raised it, from the traceback's `---->` arrow, with the
    /// code the traceback shows on that line; `None` when the traceback has no arrow.
    pub line: Option<(usize, String)>,
}

impl SavedError {
    fn from_output(output: &Value) -> Option<Self> {
        let name = output.get("ename")?.as_str()?.to_owned();
        let traceback = output.get("traceback").and_then(Value::as_array);
        let line = traceback
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .flat_map(|entry| entry.lines().map(strip_ansi).collect::<Vec<_>>())
            .find_map(|line| arrow_line(&line));
        Some(Self { name, line })
    }

    /// The cell ran through this line (1-based; 0 when nothing ran: a syntax error), if known.
    pub fn ran_through_line(&self) -> Option<usize> {
        match &self.line {
            Some((line, _)) => Some(*line),
            None if matches!(
                self.name.as_str(),
                "SyntaxError" | "IndentationError" | "TabError"
            ) =>
            {
                Some(0)
            }
            None => None,
        }
    }
}

/// `----> 5 x = f()` (IPython's marker of the line that raised, in the cell's frame, which comes
/// first): 5 and `x = f()`.
fn arrow_line(line: &str) -> Option<(usize, String)> {
    let rest = line
        .trim_start()
        .strip_prefix("--")?
        .trim_start_matches('-');
    let rest = rest.strip_prefix('>')?.trim_start();
    let digits = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    let number = rest[..digits].parse().ok()?;
    Some((number, rest[digits..].trim().to_owned()))
}

/// The text without ANSI colour codes (`\x1b[0;31m`).
fn strip_ansi(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[derive(Clone, Debug, PartialEq)]
pub struct Notebook {
    /// All cells in document order: indices are notebook cell indices.
    pub cells: Vec<Cell>,
}

impl Notebook {
    pub fn parse(json: &str) -> Result<Self, String> {
        let document: Value =
            serde_json::from_str(json).map_err(|e| format!("not valid JSON: {e}"))?;
        if let Some(version) = document.get("nbformat") {
            if version.as_u64() != Some(4) {
                return Err(format!(
                    "unsupported nbformat {version}: only nbformat 4 is read"
                ));
            }
        }
        let cells = document
            .get("cells")
            .and_then(Value::as_array)
            .ok_or("not a Jupyter notebook: no \"cells\" list")?;
        let cells = cells
            .iter()
            .enumerate()
            .map(|(index, cell)| parse_cell(cell).map_err(|e| format!("cell {index}: {e}")))
            .collect::<Result<_, _>>()?;
        Ok(Self { cells })
    }

    /// Indices of the code cells in document order.
    pub fn code_cells(&self) -> impl Iterator<Item = usize> + '_ {
        self.cells
            .iter()
            .enumerate()
            .filter(|(_, cell)| cell.kind == CellKind::Code)
            .map(|(index, _)| index)
    }

    /// Code cells by execution count, then the cells that did not run in document order.
    pub fn execution_order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = self.code_cells().collect();
        order.sort_by_key(|&index| self.cells[index].execution_count.unwrap_or(u64::MAX));
        order
    }
}

fn parse_cell(cell: &Value) -> Result<Cell, String> {
    let kind = match cell.get("cell_type").and_then(Value::as_str) {
        Some("code") => CellKind::Code,
        Some(_) => CellKind::Other,
        None => return Err("no \"cell_type\"".to_owned()),
    };
    let source = match cell.get("source") {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(lines)) => lines
            .iter()
            .map(|line| line.as_str().ok_or("\"source\" lists a non-string"))
            .collect::<Result<String, _>>()?,
        None => String::new(),
        Some(_) => return Err("\"source\" is neither a string nor a list of strings".to_owned()),
    };
    let outputs = cell.get("outputs").and_then(Value::as_array);
    let outputs = outputs.map(Vec::as_slice).unwrap_or_default();
    let execution_count = cell
        .get("execution_count")
        .and_then(Value::as_u64)
        .or_else(|| {
            outputs
                .iter()
                .find_map(|output| output.get("execution_count").and_then(Value::as_u64))
        });
    let error = outputs
        .iter()
        .filter(|output| output.get("output_type").and_then(Value::as_str) == Some("error"))
        .find_map(SavedError::from_output);
    Ok(Cell {
        kind,
        source,
        execution_count,
        error,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_sources_as_strings_or_lines() {
        let notebook = Notebook::parse(
            r##"{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
                {"cell_type": "markdown", "source": "# Title", "metadata": {}},
                {"cell_type": "code", "source": ["x = 1\n", "y = 2"], "execution_count": 2},
                {"cell_type": "code", "source": "print(x)", "execution_count": 1},
                {"cell_type": "code", "source": "z", "execution_count": null}]}"##,
        )
        .unwrap();
        assert_eq!(notebook.cells[1].source, "x = 1\ny = 2");
        assert_eq!(notebook.code_cells().collect::<Vec<_>>(), [1, 2, 3]);
        assert_eq!(notebook.execution_order(), [2, 1, 3]);
    }

    #[test]
    fn outputs_tell_the_count_and_the_crash() {
        let notebook = Notebook::parse(
            r##"{"cells": [
                {"cell_type": "code", "source": "x = 1\ny = f()\nz = 2", "execution_count": null,
                 "outputs": [{"output_type": "execute_result", "execution_count": 4, "data": {}},
                    {"output_type": "error", "ename": "NameError", "evalue": "f",
                     "traceback": ["\u001b[0;31mNameError\u001b[0m  Traceback",
                        "Cell \u001b[0;32mIn[4], line 2\u001b[0m\n\u001b[1;32m      1\u001b[0m x = 1\n\u001b[0;32m----> 2\u001b[0m y \u001b[38;5;241m=\u001b[39m f()\n",
                        "File \u001b[0;32m/lib.py:3\u001b[0m\n\u001b[0;32m----> 3\u001b[0m raise\n"]}]},
                {"cell_type": "code", "source": "(", "execution_count": 5,
                 "outputs": [{"output_type": "error", "ename": "SyntaxError", "evalue": "",
                     "traceback": ["  Cell In[5], line 1\n    (\n    ^\n", "SyntaxError: '(' was never closed\n"]}]}]}"##,
        )
        .unwrap();
        let crashed = &notebook.cells[0];
        assert_eq!(crashed.execution_count, Some(4));
        let error = crashed.error.as_ref().unwrap();
        assert_eq!(error.line, Some((2, "y = f()".to_owned())));
        assert_eq!(error.ran_through_line(), Some(2));
        let syntax = notebook.cells[1].error.as_ref().unwrap();
        assert_eq!(
            (syntax.line.clone(), syntax.ran_through_line()),
            (None, Some(0))
        );
    }

    #[test]
    fn rejects_what_is_not_a_notebook() {
        assert!(Notebook::parse("{")
            .unwrap_err()
            .starts_with("not valid JSON"));
        assert!(Notebook::parse("[]")
            .unwrap_err()
            .starts_with("not a Jupyter notebook"));
        assert!(Notebook::parse(r#"{"nbformat": 3, "cells": []}"#).is_err());
        assert!(Notebook::parse(r#"{"cells": [{"cell_type": "code", "source": 1}]}"#).is_err());
    }
}
