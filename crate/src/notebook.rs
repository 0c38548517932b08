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
    /// The `[n]` of a code cell that ran.
    pub execution_count: Option<u64>,
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
    Ok(Cell {
        kind,
        source,
        execution_count: cell.get("execution_count").and_then(Value::as_u64),
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
