"""Writes demo/cellguard-demo.ipynb: a small notebook whose cells crash in ways cellguard predicts.

The data is generated inside the notebook's first cell (numpy, fixed seed), so the notebook needs no
data file. Run `python demo/make_notebook.py` after editing the cells below.
"""

import json
from pathlib import Path

CELLS = [
    ("markdown", """# cellguard demo

cellguard predicts whether a cell will crash **before you run it**. Run the first code cell
(Shift+Enter), then look at the cells below it: the squiggles are crashes cellguard predicts.
Hover a squiggle to read why; some offer a fix. The bug icon in the right sidebar lists them all,
and the status bar shows whether the kernel is linked."""),
    ("code", """import numpy as np
import pandas as pd

# A Titanic-like table, generated with a fixed seed so every run sees the same data.
rng = np.random.default_rng(7)
n = 400
df = pd.DataFrame({
    "PassengerId": np.arange(1, n + 1),
    "Survived": rng.integers(0, 2, n),
    "Pclass": rng.choice([1, 2, 3], n, p=[0.25, 0.25, 0.5]),
    "Sex": rng.choice(["male", "female"], n),
    "Age": np.where(rng.random(n) < 0.2, np.nan, rng.normal(30, 14, n).clip(0.5, 80).round(1)),
    "Fare": rng.gamma(2.0, 16.0, n).round(2),
    "Embarked": rng.choice(["S", "C", "Q"], n, p=[0.7, 0.2, 0.1]),
})
df.head()"""),
    ("markdown", """## 1. A function defined in a later cell

`describe_passengers` is defined in the next cell, which has not run yet: running this cell now
raises `NameError`. The fix runs the defining cell first."""),
    ("code", """fares = describe_passengers(df)
fares"""),
    ("code", """def describe_passengers(frame):
    return frame.groupby("Pclass")["Fare"].mean()"""),
    ("markdown", """## 2. A misspelt column

The table has an `Age` column, not `Agee`: `KeyError`."""),
    ("code", """mean_age = df["Agee"].mean()"""),
    ("markdown", """## 3. A model fitted on two features, asked about three

`predict` gets three columns, the model was fitted on two: `ValueError`."""),
    ("code", """from sklearn.linear_model import LogisticRegression

model = LogisticRegression(max_iter=500).fit(df[["Pclass", "Fare"]], df["Survived"])"""),
    ("code", """predictions = model.predict(df[["Pclass", "Fare", "Age"]].fillna(0))"""),
    ("markdown", """## 4. Missing values into LogisticRegression

`Age` has missing values, which `LogisticRegression` rejects: `ValueError`. Run the first cell
below, then look at the second."""),
    ("code", """features = df[["Pclass", "Age"]]"""),
    ("code", """age_model = LogisticRegression().fit(features, df["Survived"])"""),
]


def cell(kind, source):
    lines = source.splitlines(keepends=True)
    if kind == "markdown":
        return {"cell_type": "markdown", "metadata": {}, "source": lines}
    return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": lines}


notebook = {
    "cells": [cell(kind, source) for kind, source in CELLS],
    "metadata": {
        "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
        "language_info": {"name": "python"},
    },
    "nbformat": 4,
    "nbformat_minor": 5,
}
for index, entry in enumerate(notebook["cells"]):
    entry["id"] = f"cellguard-demo-{index}"

path = Path(__file__).with_name("cellguard-demo.ipynb")
path.write_text(json.dumps(notebook, indent=1) + "\n")
print(f"wrote {path}")
