//! Fixture tests of the rule engine: for every rule a crash twin (the rule fires, with its code,
//! message facts and range) and a no-crash twin (silence), run through `check_cell`.

use cellguard::check::{check_cell, CheckInput};
use cellguard::diagnostic::{Diagnostic, Severities, Severity};
use cellguard::summary::SummaryDoc;

mod support;

const TITANIC: &str = r#""df": {"type": "pandas.core.frame.DataFrame", "kind": "dataframe",
    "S": {"shape": [891, 4]},
    "R": {"columns": ["PassengerId", "Survived", "Age", "Sex"], "columns_complete": true},
    "V": {"has_nan": true, "column_values": {"Sex": {"kind": "binary", "examples": ["male", "female"]},
          "Age": {"kind": "continuous", "has_nan": true}}}}"#;

/// The kernel's summary of the module `module`, of release `version`, bound to `name`.
fn module_summary(name: &str, module: &str, version: &str) -> String {
    format!(
        r#""{name}": {{"type": "module", "kind": "module", "R": {{"module": "{module}", "version": "{version}"}}}}"#
    )
}

fn run(history: &[&str], target: &str, objects: &str) -> Vec<Diagnostic> {
    let history: Vec<String> = history.iter().map(|s| s.to_string()).collect();
    support::check_after(&history, &[], target, objects)
}

/// Asserts a diagnostic with `code` whose first occurrence covers `covered` and mentions every fact.
fn fires(d: &[Diagnostic], target: &str, code: &str, covered: &str, facts: &[&str]) {
    let found: Vec<&Diagnostic> = d.iter().filter(|d| d.code == code).collect();
    assert!(!found.is_empty(), "expected {code}, got {d:#?}");
    let first = found[0];
    let text = &target[first.range.start as usize..first.range.end as usize];
    assert_eq!(text, covered, "range of {code}: {first:#?}");
    for f in facts {
        assert!(
            first.message.contains(f),
            "message {:?} lacks {f:?}",
            first.message
        );
    }
}

fn silent(d: &[Diagnostic]) {
    assert!(d.is_empty(), "expected no diagnostic, got {d:#?}");
}

const IMPORTS: &str = "import pandas as pd\nimport numpy as np\nimport matplotlib.pyplot as plt\nimport seaborn as sns";

// ---------- missing-column

#[test]
fn missing_column_subscript() {
    let t = "x = df['Agee'] + 1";
    let d = run(&[IMPORTS], t, TITANIC);
    fires(
        &d,
        t,
        "missing-column",
        "'Agee'",
        &["'Agee'", "4 columns", "did you mean 'Age'"],
    );
    let fix = d[0].fix.as_ref().unwrap();
    assert_eq!(fix.edits[0].content, "'Age'");
    silent(&run(&[IMPORTS], "x = df['Age'] + 1", TITANIC));
}

#[test]
fn missing_column_of_a_frame_the_cell_builds() {
    let t = "frame = pd.DataFrame({'city': ['Oslo'], 'temp': [3.5]})\nframe['tmp'].mean()";
    fires(
        &run(&[IMPORTS], t, ""),
        t,
        "missing-column",
        "'tmp'",
        &["2 columns: 'city', 'temp'", "did you mean 'temp'"],
    );
    let t = "frame = pd.DataFrame(rows, columns=['city', 'temp'])\nframe[['city', 'country']]";
    fires(
        &run(&[IMPORTS, "rows = [('Oslo', 3.5)]"], t, ""),
        t,
        "missing-column",
        "'country'",
        &["'country'"],
    );
    for t in [
        // `columns` selects from a dict, adding missing columns as NaN.
        "frame = pd.DataFrame({'city': ['Oslo']}, columns=['city', 'temp'])\nframe['temp']",
        // The dict changed before the frame was built.
        "d = {'city': ['Oslo']}\nd['temp'] = [3.5]\nframe = pd.DataFrame(d)\nframe['temp']",
        // Setting with enlargement adds the column.
        "frame = pd.DataFrame({'city': ['Oslo']})\nframe.at[0, 'temp'] = 3.5\nframe['temp']",
        "frame = pd.DataFrame({'city': ['Oslo']})\nframe.loc[0, 'temp'] = 3.5\nframe['temp']",
        // A repeated key, records and unpacking are not followed.
        "frame = pd.DataFrame({'city': ['Oslo'], 'city': ['Rome']})\nframe['temp']",
        "frame = pd.DataFrame([{'city': 'Oslo', 'temp': 3.5}])\nframe['temp']",
        "frame = pd.DataFrame(**kwargs)\nframe['temp']",
    ] {
        silent(&run(&[IMPORTS, "rows = []\nkwargs = {}"], t, ""));
    }
}

#[test]
fn missing_column_in_a_list_loc_and_attribute() {
    let t = "df[['Age', 'Fare']]";
    fires(
        &run(&[IMPORTS], t, TITANIC),
        t,
        "missing-column",
        "'Fare'",
        &["'Fare'"],
    );
    let t = "df.loc[:, 'Fare']";
    fires(
        &run(&[IMPORTS], t, TITANIC),
        t,
        "missing-column",
        "'Fare'",
        &["'Fare'"],
    );
    let t = "df.Fare.mean()";
    fires(
        &run(&[IMPORTS], t, TITANIC),
        t,
        "missing-column",
        "Fare",
        &["AttributeError"],
    );
    silent(&run(
        &[IMPORTS],
        "df[['Age', 'Sex']]\ndf.loc[:, 'Age']\ndf.Age.mean()\ndf.shape",
        TITANIC,
    ));
}

#[test]
fn assignment_creates_a_column_and_get_does_not_raise() {
    silent(&run(
        &[IMPORTS],
        "df['Fare'] = 1\ndf['Fare'].mean()\ndf.get('Cabin')",
        TITANIC,
    ));
}

#[test]
fn drop_of_an_absent_column() {
    let t = "df = df.drop(['Cabin'], axis=1)";
    fires(
        &run(
            &[IMPORTS, "df.drop(columns=['Cabin'], inplace=True)"],
            t,
            TITANIC,
        ),
        t,
        "missing-column",
        "'Cabin'",
        &["'Cabin'", "an earlier cell dropped it"],
    );
    silent(&run(
        &[IMPORTS],
        "df = df.drop(['Cabin'], axis=1, errors='ignore')",
        TITANIC,
    ));
    // Rows, not columns.
    silent(&run(&[IMPORTS], "df = df.drop([10472])", TITANIC));
}

#[test]
fn a_column_dropped_earlier_in_the_cell() {
    let t = "df.drop(columns='Sex', inplace=True)\ndf['Sex']";
    fires(
        &run(&[IMPORTS], t, TITANIC),
        t,
        "missing-column",
        "'Sex'",
        &["3 columns"],
    );
    let t = "X = df.drop(columns=['Sex'])\nX['Sex']";
    fires(
        &run(&[IMPORTS], t, TITANIC),
        t,
        "missing-column",
        "'Sex'",
        &[],
    );
    silent(&run(
        &[IMPORTS],
        "X = df.drop(columns=['Sex'])\ndf['Sex']",
        TITANIC,
    ));
}

#[test]
fn sort_groupby_and_rename_keys() {
    let t = "df.sort_values(by='Fare')";
    fires(
        &run(&[IMPORTS], t, TITANIC),
        t,
        "missing-column",
        "'Fare'",
        &["sort key"],
    );
    let t = "df.groupby('Class').mean()";
    fires(
        &run(&[IMPORTS], t, TITANIC),
        t,
        "missing-column",
        "'Class'",
        &["group key"],
    );
    // A named index could carry the name.
    silent(&run(
        &[IMPORTS, "df = df.set_index('PassengerId')"],
        "df.sort_values(by='PassengerId')",
        TITANIC,
    ));
    // rename ignores absent keys unless errors='raise'.
    silent(&run(
        &[IMPORTS],
        "df = df.rename(columns={'Fare': 'fare'})",
        TITANIC,
    ));
    let t = "df.rename(columns={'Fare': 'fare'}, errors='raise')";
    fires(
        &run(&[IMPORTS], t, TITANIC),
        t,
        "missing-column",
        "'Fare'",
        &[],
    );
}

#[test]
fn renamed_columns_flow_and_unknowns_are_silent() {
    let t = "d2 = df.rename(columns={'Age': 'age'})\nd2['Age']";
    fires(
        &run(&[IMPORTS], t, TITANIC),
        t,
        "missing-column",
        "'Age'",
        &["did you mean 'age'"],
    );
    // In a branch: not certain to run.
    silent(&run(
        &[IMPORTS],
        "if df['Age'].mean() > 5:\n    df['Fare']",
        TITANIC,
    ));
    // Inside a function that is never called.
    silent(&run(&[IMPORTS], "def f():\n    return df['Fare']", TITANIC));
    // Passed to a notebook function that may add columns.
    silent(&run(
        &[IMPORTS, "def add(d):\n    d['Fare'] = 0"],
        "add(df)\ndf['Fare']",
        TITANIC,
    ));
    // A cut column list.
    let cut = r#""df": {"kind": "dataframe", "S": {"shape": [3, 40]}, "R": {"columns": ["a"], "columns_complete": false}}"#;
    silent(&run(&[IMPORTS], "df['b']", cut));
}

// ---------- sklearn

const SK: &str = "from sklearn.linear_model import LogisticRegression, LinearRegression\nfrom sklearn.preprocessing import StandardScaler\nfrom sklearn.ensemble import RandomForestClassifier\nfrom sklearn.model_selection import train_test_split";

const XY: &str = r#""X_train": {"type": "pandas.core.frame.DataFrame", "kind": "dataframe", "S": {"shape": [100, 58]}, "V": {"has_nan": false}},
    "X_test": {"type": "pandas.core.frame.DataFrame", "kind": "dataframe", "S": {"shape": [20, 53]}, "V": {"has_nan": false}},
    "X_ok": {"type": "pandas.core.frame.DataFrame", "kind": "dataframe", "S": {"shape": [20, 58]}, "V": {"has_nan": false}},
    "X_nan": {"type": "pandas.core.frame.DataFrame", "kind": "dataframe", "S": {"shape": [20, 58]}, "V": {"has_nan": true}},
    "y_train": {"type": "pandas.core.series.Series", "kind": "series", "S": {"shape": [100]}, "V": {"examples": ["No", "Yes"]}},
    "empty": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [0, 1]}},
    "model": {"type": "sklearn.ensemble._forest.RandomForestClassifier", "kind": "estimator", "S": {"n_features_in": 58}, "V": {"fitted": true}}"#;

#[test]
fn not_fitted() {
    let t = "m = LogisticRegression()\nm.predict(X_test)";
    fires(
        &run(&[SK], t, XY),
        t,
        "sklearn-not-fitted",
        "m.predict(X_test)",
        &["unfitted LogisticRegression"],
    );
    silent(&run(
        &[SK],
        "m = LogisticRegression()\nm.fit(X_train, y_train)\nm.predict(X_ok)",
        XY,
    ));
}

#[test]
fn feature_count_mismatch() {
    let t = "model.predict(X_test)";
    fires(
        &run(&[SK], t, XY),
        t,
        "sklearn-feature-mismatch",
        "X_test",
        &["58 features", "X_test has 53"],
    );
    let t = "s = StandardScaler()\na = s.fit_transform(X_train)\nb = s.transform(X_test)";
    fires(
        &run(&[SK], t, XY),
        t,
        "sklearn-feature-mismatch",
        "X_test",
        &["58"],
    );
    silent(&run(&[SK], "model.predict(X_ok)", XY));
}

#[test]
fn one_d_and_string_input() {
    let t = "s = StandardScaler()\ny = s.fit_transform(y_train)";
    fires(
        &run(&[SK], t, XY),
        t,
        "sklearn-1d-input",
        "y_train",
        &["Series"],
    );
    silent(&run(
        &[SK],
        "s = StandardScaler()\nX = s.fit_transform(X_train)",
        XY,
    ));
    let t = "rf = RandomForestClassifier()\nrf.fit(df, [0])";
    fires(
        &run(&[IMPORTS, SK], t, TITANIC),
        t,
        "sklearn-string-input",
        "df",
        &["'Sex'", "'male'"],
    );
    silent(&run(
        &[IMPORTS, SK],
        "rf = RandomForestClassifier()\nrf.fit(df[['Age', 'PassengerId']], [0] * 891)",
        TITANIC,
    ));
}

/// `x` and `y` hold the values of columns of a frame read by read_csv; the kernel reports object
/// arrays (or, for `n`, a number array).
const CSV_COLUMNS: &str = r#""x": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [100, 1]}, "R": {"dtype": "object"}},
    "y": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [100]}, "R": {"dtype": "object"}},
    "n": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [100, 1]}, "R": {"dtype": "int64"}}"#;

const READ: &str = "df = pd.read_csv('salary.csv', sep=',')";
const VALUES: &str =
    "x = df.workclass.values.reshape(-1, 1)\ny = df['salary'].to_numpy()\nn = df[['age']].values";

#[test]
fn object_array_of_a_read_csv_column() {
    let t = "m = LinearRegression()\nm.fit(x, y)";
    fires(
        &run(&[IMPORTS, SK, READ, VALUES], t, CSV_COLUMNS),
        t,
        "sklearn-string-input",
        "x",
        &[
            "LinearRegression",
            "'workclass'",
            "df",
            "read_csv",
            "ValueError",
        ],
    );
    // Through train_test_split, and with predict.
    let t = "a, b, c, d = train_test_split(x, y)\nm = LinearRegression()\nm.fit(a, c)";
    fires(
        &run(&[IMPORTS, SK, READ, VALUES], t, CSV_COLUMNS),
        t,
        "sklearn-string-input",
        "a",
        &["'workclass'"],
    );
    // A number column.
    silent(&run(
        &[IMPORTS, SK, READ, VALUES],
        "m = LinearRegression()\nm.fit(n, y)",
        CSV_COLUMNS,
    ));
    // Booleans with missing values are NaN to a forest, which takes them.
    silent(&run(
        &[IMPORTS, SK, READ, VALUES],
        "m = RandomForestClassifier()\nm.fit(x, y)",
        CSV_COLUMNS,
    ));
    // Encoded in the target.
    silent(&run(
        &[IMPORTS, SK, READ, VALUES],
        "from sklearn.preprocessing import LabelEncoder\nx = LabelEncoder().fit_transform(df.workclass.values).reshape(-1, 1)\nm = LinearRegression()\nm.fit(x, y)",
        CSV_COLUMNS,
    ));
}

#[test]
fn object_arrays_of_other_origins_are_not_claimed_text() {
    let fit = "m = LinearRegression()\nm.fit(x, y)";
    // read_csv told to keep text (numbers as strings), or to convert columns itself.
    for read in [
        "df = pd.read_csv('salary.csv', dtype=str)",
        "df = pd.read_csv('salary.csv', converters={'workclass': int})",
        "df = pd.read_csv('salary.csv', **opts)",
    ] {
        silent(&run(&[IMPORTS, SK, read, VALUES], fit, CSV_COLUMNS));
    }
    // Another library's reader.
    silent(&run(
        &[
            SK,
            "import dask.dataframe as pd\ndf = pd.read_csv('salary.csv')",
            VALUES,
        ],
        fit,
        CSV_COLUMNS,
    ));
    // The frame changed before the values were taken, or after (they may be a view of it).
    for change in [
        "df['workclass'] = df['workclass'].map({' Private': 1})",
        "df.replace({' Private': 1}, inplace=True)",
    ] {
        silent(&run(&[IMPORTS, SK, READ, change, VALUES], fit, CSV_COLUMNS));
        silent(&run(&[IMPORTS, SK, READ, VALUES, change], fit, CSV_COLUMNS));
    }
    // The frame changed in the target before the fit.
    silent(&run(
        &[IMPORTS, SK, READ, VALUES],
        "df.loc[:, 'workclass'] = 1\nm = LinearRegression()\nm.fit(x, y)",
        CSV_COLUMNS,
    ));
    // The array itself changed, or was rebound.
    silent(&run(
        &[IMPORTS, SK, READ, VALUES, "x[x == ' Private'] = 1"],
        fit,
        CSV_COLUMNS,
    ));
    silent(&run(
        &[
            IMPORTS,
            SK,
            READ,
            VALUES,
            "x = np.ones((100, 1), dtype=object)",
        ],
        fit,
        CSV_COLUMNS,
    ));
    // Several columns: int and bool columns make an object array of numbers.
    silent(&run(
        &[IMPORTS, SK, READ, "x = df[['age', 'married']].values"],
        fit,
        CSV_COLUMNS,
    ));
    // The whole frame's values, or a frame attribute.
    silent(&run(
        &[IMPORTS, SK, READ, "x = df.values\ny = df.T.values"],
        fit,
        CSV_COLUMNS,
    ));
}

#[test]
fn nan_input_only_for_estimators_that_reject_it() {
    let t = "m = LinearRegression()\nm.fit(X_nan, [0])";
    fires(
        &run(&[SK], t, XY),
        t,
        "sklearn-nan-input",
        "X_nan",
        &["NaN", "LinearRegression"],
    );
    silent(&run(
        &[SK],
        "s = StandardScaler()\ns.fit(X_nan)\nrf = RandomForestClassifier()\nrf.fit(X_nan, [0] * 20)",
        XY,
    ));
}

#[test]
fn empty_input_and_bad_params() {
    let t = "a, b = train_test_split(empty, test_size=0.2)";
    fires(
        &run(&[SK], t, XY),
        t,
        "sklearn-empty-input",
        "empty",
        &["0 samples"],
    );
    silent(&run(
        &[SK],
        "a, b = train_test_split(X_train, test_size=0.2)",
        XY,
    ));
    let t = "m = LogisticRegression(solver='liblinear', penalty='elasticnet')\nm.fit(X_train, [0])";
    fires(
        &run(&[SK], t, XY),
        t,
        "sklearn-bad-params",
        "m.fit(X_train, [0])",
        &["liblinear", "elasticnet"],
    );
    silent(&run(
        &[SK],
        "m = LogisticRegression(solver='liblinear', penalty='l1')\nm.fit(X_train, y_train)",
        XY,
    ));
    silent(&run(&[SK], "m = LogisticRegression(solver='saga', penalty='elasticnet', l1_ratio=0.5)\nm.fit(X_train, y_train)", XY));
}

// ---------- shapes

const ARR: &str = r#""a": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [68]}},
    "b": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [272]}},
    "c": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [68, 1]}},
    "m": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [10, 3]}},
    "img": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [3, 224, 224]}},
    "ok_img": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [224, 224, 3]}},
    "vol": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [1, 20, 32, 32, 3]}},
    "items": {"type": "list", "kind": "list", "S": {"length": 3}}"#;

#[test]
fn broadcast_and_matmul() {
    let t = "e = sum((a - b) ** 2)";
    fires(
        &run(&[IMPORTS], t, ARR),
        t,
        "shape-broadcast",
        "a - b",
        &["(68,)", "(272,)"],
    );
    silent(&run(&[IMPORTS], "e = sum((a - c) ** 2)\nf = a * 2", ARR));
    let t = "p = m @ m";
    fires(
        &run(&[IMPORTS], t, ARR),
        t,
        "shape-matmul",
        "m @ m",
        &["3 and 10"],
    );
    silent(&run(&[IMPORTS], "p = m @ m.T\nq = np.dot(m, m.T)", ARR));
}

#[test]
fn concatenate_and_reshape() {
    let t = "np.concatenate([a, c])";
    fires(
        &run(&[IMPORTS], t, ARR),
        t,
        "shape-concatenate",
        "np.concatenate([a, c])",
        &["(68,)"],
    );
    silent(&run(&[IMPORTS], "np.concatenate([a, b])", ARR));
    let t = "m.reshape(4, -1)";
    fires(
        &run(&[IMPORTS], t, ARR),
        t,
        "shape-reshape",
        "m.reshape(4, -1)",
        &["30 elements"],
    );
    silent(&run(
        &[IMPORTS],
        "m.reshape(5, -1)\nnp.reshape(m, (3, 10))",
        ARR,
    ));
}

#[test]
fn image_and_savetxt() {
    let t = "plt.imshow(img)";
    fires(
        &run(&[IMPORTS], t, ARR),
        t,
        "shape-image",
        "img",
        &["(3, 224, 224)", "transpose"],
    );
    silent(&run(&[IMPORTS], "plt.imshow(ok_img)\nplt.imshow(m)", ARR));
    let t = "np.savetxt('v.txt', vol)";
    fires(
        &run(&[IMPORTS], t, ARR),
        t,
        "shape-savetxt",
        "vol",
        &["(1, 20, 32, 32, 3)"],
    );
    silent(&run(
        &[IMPORTS],
        "np.savetxt('m.txt', m)\nnp.save('v.npy', vol)",
        ARR,
    ));
}

// ---------- values

const STRS: &str = r#""d": {"type": "pandas.core.frame.DataFrame", "kind": "dataframe", "S": {"shape": [5, 2]},
    "R": {"columns": ["code", "n"]}, "V": {"nan_columns": ["n"], "column_values": {"code": {"kind": "categorical", "examples": ["46.0", "12.0"]}, "n": {"kind": "continuous"}}}},
    "w": {"type": "pandas.core.frame.DataFrame", "kind": "dataframe", "S": {"shape": [5, 1]},
    "R": {"columns": ["city"]}, "V": {"has_nan": false, "column_values": {"city": {"kind": "categorical", "examples": ["Oslo", "Rome"]}}}}"#;

#[test]
fn conversions_of_strings_and_nan() {
    let t = "d['code'] = d['code'].astype(int)";
    fires(
        &run(&[IMPORTS], t, STRS),
        t,
        "value-conversion",
        "d['code'].astype(int)",
        &["'46.0'"],
    );
    silent(&run(
        &[IMPORTS],
        "d['code'] = d['code'].astype(float)",
        STRS,
    ));
    let t = "d['n'].astype('int64')";
    fires(
        &run(&[IMPORTS], t, STRS),
        t,
        "value-conversion",
        t,
        &["NaN"],
    );
    let t = "pd.to_numeric(w['city'])";
    fires(
        &run(&[IMPORTS], t, STRS),
        t,
        "value-conversion",
        t,
        &["'Oslo'"],
    );
    silent(&run(
        &[IMPORTS],
        "pd.to_numeric(w['city'], errors='coerce')\npd.to_numeric(d['code'])",
        STRS,
    ));
}

#[test]
fn index_out_of_range() {
    let t = "items[3]";
    fires(
        &run(&[IMPORTS], t, ARR),
        t,
        "index-out-of-range",
        t,
        &["length 3"],
    );
    silent(&run(
        &[IMPORTS],
        "items[2]\nitems[-3]\nitems.append(1)\nitems[3]",
        ARR,
    ));
}

// ---------- API use

#[test]
fn module_called() {
    let t = "for x in tqdm(range(3)):\n    pass";
    fires(
        &run(&["import tqdm"], t, ""),
        t,
        "module-called",
        "tqdm",
        &["not callable"],
    );
    silent(&run(&["from tqdm import tqdm"], t, ""));
}

#[test]
fn missing_attributes() {
    let keras =
        r#""model": {"type": "keras.src.models.sequential.Sequential", "kind": "keras_model"}"#;
    let t = "p = model.predict_classes(x)";
    fires(
        &run(&["x = 1"], t, keras),
        t,
        "missing-attribute",
        "predict_classes",
        &["removed"],
    );
    silent(&run(&["x = 1"], "p = model.predict(x)", keras));
    let t = "c = pd.Categorical(df['Sex'])\nc.cat.codes";
    fires(
        &run(&[IMPORTS], t, TITANIC),
        t,
        "missing-attribute",
        "cat",
        &["Categorical"],
    );
    silent(&run(
        &[IMPORTS],
        "c = pd.Categorical(df['Sex'])\nc.codes",
        TITANIC,
    ));
    let t = "plt.zlabel('z')";
    fires(
        &run(&[IMPORTS], t, ""),
        t,
        "missing-attribute",
        "zlabel",
        &["set_zlabel"],
    );
    silent(&run(&[IMPORTS], "plt.xlabel('x')", ""));
}

#[test]
fn arguments_that_do_not_fit() {
    // A signature known from a library version, not from the kernel: likely, not certain.
    let t = "sns.barplot(df['Sex'], df['Age'])";
    let found = run(&[IMPORTS], t, TITANIC);
    fires(
        &found,
        t,
        "bad-arguments",
        t,
        &[
            "takes 1 positional argument but 2 were given; pass the others by keyword",
            "likely",
            "seaborn 0.12 or later",
        ],
    );
    assert_eq!(found[0].severity, Severity::Warning);
    silent(&run(
        &[IMPORTS],
        "sns.barplot(x=df['Sex'], y=df['Age'])",
        TITANIC,
    ));
    let t = "plt.scatter([1], [2], [3], s=200)";
    fires(
        &run(&[IMPORTS], t, ""),
        t,
        "bad-arguments",
        "s=200",
        &["multiple values for argument 's'"],
    );
    silent(&run(
        &[IMPORTS],
        "plt.scatter([1], [2], s=200, c='red')",
        "",
    ));
    let keras =
        r#""model": {"type": "keras.src.models.functional.Functional", "kind": "keras_model"}"#;
    let t = "model.compile(optimizer='adam', class_weight={0: 1})";
    let found = run(&[], t, keras);
    fires(
        &found,
        t,
        "bad-arguments",
        "class_weight={0: 1}",
        &["unexpected keyword"],
    );
    // The kernel's type is Keras 3's own: certain.
    assert_eq!(found[0].severity, Severity::Error);
    silent(&run(
        &[],
        "model.compile(optimizer='adam', loss='mse')",
        keras,
    ));
}

/// What the kernel answers for a fitted forest, its missing `oob_score_` (a real lookup on a
/// library object) and its `fit` method's signature.
const LIVE_FOREST: &str = r#""forest": {"type": "sklearn.ensemble._forest.RandomForestClassifier", "kind": "estimator", "V": {"fitted": true}},
    "forest.oob_score_": {"error": "no_attribute", "owner": "'RandomForestClassifier' object", "attribute": "oob_score_"},
    "forest.fit": {"type": "method", "kind": "callable", "R": {"signature": "(X, y, sample_weight=None)",
        "wrapped": false, "callable_kind": "method", "library": "sklearn",
        "parameters": [{"name": "X", "kind": "POSITIONAL_OR_KEYWORD"}, {"name": "y", "kind": "POSITIONAL_OR_KEYWORD"},
                       {"name": "sample_weight", "kind": "POSITIONAL_OR_KEYWORD", "default": "None"}]}},
    "np.float": {"error": "no_attribute", "owner": "module 'numpy'", "attribute": "float", "hint": "`np.float` was a deprecated alias for the builtin `float`."},
    "np.nope": {"error": "not_loaded", "owner": "module 'numpy'", "attribute": "nope"},
    "obj.thing": {"error": "not_evaluated", "owner": "'Holder' object", "attribute": "thing", "reason": "dynamic"}"#;

#[test]
fn attributes_the_kernel_did_not_find() {
    let t = "print(forest.oob_score_)";
    fires(
        &run(&[], t, LIVE_FOREST),
        t,
        "missing-attribute",
        "oob_score_",
        &[
            "'RandomForestClassifier' object has no attribute 'oob_score_'",
            "forest.oob_score_",
        ],
    );
    let t = "x = np.float(3)";
    fires(
        &run(&[IMPORTS], t, LIVE_FOREST),
        t,
        "missing-attribute",
        "float",
        &["deprecated alias", "np.float"],
    );
    for t in [
        // A call earlier in the cell may set the attribute.
        "forest.set_params(oob_score=True).fit(X, y)\nprint(forest.oob_score_)",
        // The name is rebound first.
        "forest = make_forest()\nprint(forest.oob_score_)",
        // A module `__getattr__` may provide it; a user's class may compute it.
        "x = np.nope",
        "print(obj.thing)",
        // Guarded.
        "try:\n    print(forest.oob_score_)\nexcept AttributeError:\n    pass",
        "ok = flag and forest.oob_score_ > 0.5",
        "if flag:\n    print(forest.oob_score_)",
    ] {
        silent(&run(
            // Names the history binds to what the code does not tell.
            &[IMPORTS, "X = y = obj = make_forest = flag = unknown()"],
            t,
            LIVE_FOREST,
        ));
    }
}

#[test]
fn arguments_that_do_not_fit_the_signature_the_kernel_read() {
    let t = "forest.fit(X, y, epochs=3)";
    fires(
        &run(&["X = y = 0"], t, LIVE_FOREST),
        t,
        "bad-arguments",
        t,
        &[
            "unexpected keyword argument 'epochs'",
            "(X, y, sample_weight=None)",
        ],
    );
    let t = "forest.fit(X)";
    fires(
        &run(&["X = y = 0"], t, LIVE_FOREST),
        t,
        "bad-arguments",
        t,
        &["missing 1 required argument: 'y'"],
    );
    for t in [
        "forest.fit(X, y)",
        "forest.fit(X, y=y, sample_weight=None)",
        "forest.fit(*data)",
        "forest.fit(X, **options)",
    ] {
        silent(&run(&["X = y = data = options = 0"], t, LIVE_FOREST));
    }
    // A class: its constructor's parameters.
    let svc = r#""SVC": {"type": "type", "kind": "class", "R": {"class": "SVC", "module": "sklearn.svm._classes",
        "signature": "(*, C=1.0, kernel='rbf')", "wrapped": false,
        "parameters": [{"name": "C", "kind": "KEYWORD_ONLY", "default": "1.0"},
                       {"name": "kernel", "kind": "KEYWORD_ONLY", "default": "'rbf'"}]}}"#;
    let t = "model = SVC(10.0)";
    fires(
        &run(&[], t, svc),
        t,
        "bad-arguments",
        "SVC(10.0)",
        &["SVC() takes 0 positional arguments but 1 were given"],
    );
    let t = "model = SVC(kernal='linear')";
    fires(
        &run(&[], t, svc),
        t,
        "bad-arguments",
        "SVC(kernal='linear')",
        &["unexpected keyword argument 'kernal' (did you mean 'kernel'?)"],
    );
    silent(&run(&[], "model = SVC(C=10.0, kernel='linear')", svc));
    // A decorator's wrapper may take other calls than the signature it shows.
    let wrapped = LIVE_FOREST.replace(r#""wrapped": false"#, r#""wrapped": true"#);
    silent(&run(&["X = y = 0"], "forest.fit(X, y, epochs=3)", &wrapped));
}

#[test]
fn a_list_indexed_by_an_array() {
    let labels = r#""labels": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [500, 1]}},
        "flat": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [500]}}"#;
    let t = "names = 'cat dog'.split()\nfor i in range(3):\n    print(names[labels[i]])";
    fires(&run(&[], t, labels), t, "index-type", "labels[i]", &["[1]"]);
    silent(&run(
        &[],
        "names = 'cat dog'.split()\nfor i in range(3):\n    print(names[flat[i]])",
        labels,
    ));
}

// ---------- loops over known column names

const TWO_FRAMES: &str = r#""df": {"type": "pandas.core.frame.DataFrame", "kind": "dataframe",
    "S": {"shape": [10, 3]}, "R": {"columns": ["Time", "Amount", "Class"]}, "V": {"has_nan": false}},
    "data_df": {"type": "pandas.core.frame.DataFrame", "kind": "dataframe",
    "S": {"shape": [10, 4]}, "R": {"columns": ["Time", "Amount", "Hour", "Class"]}, "V": {"has_nan": false}}"#;

#[test]
fn a_loop_over_known_columns_runs_for_each_of_them() {
    let t = "t0 = df.loc[df['Class'] == 0]\nfor feature in data_df.columns.values:\n    sns.kdeplot(t0[feature])\n    plt.xlabel(feature)";
    fires(
        &run(&[IMPORTS], t, TWO_FRAMES),
        t,
        "missing-column",
        "feature",
        &["'Hour'"],
    );
    // Every column of df itself is there.
    silent(&run(
        &[IMPORTS],
        "t0 = df.loc[df['Class'] == 0]\nfor feature in df.columns:\n    sns.kdeplot(t0[feature])",
        TWO_FRAMES,
    ));
    // A body that may leave the loop early: only the first pass is certain.
    silent(&run(
        &[IMPORTS],
        "for feature in data_df.columns:\n    if feature == 'Hour':\n        break\n    df[feature]",
        TWO_FRAMES,
    ));
    // A body that may add columns: later passes know nothing of the frame.
    silent(&run(
        &[IMPORTS, "def add(d, c):\n    d[c] = 0"],
        "for feature in ['Time', 'Hour']:\n    add(df, feature)\n    df[feature]",
        TWO_FRAMES,
    ));
    // A literal list of names.
    let t = "for c in ['Time', 'Hour']:\n    print(df[c].mean())";
    fires(
        &run(&[IMPORTS], t, TWO_FRAMES),
        t,
        "missing-column",
        "c",
        &["'Hour'"],
    );
}

#[test]
fn a_loop_that_may_not_run_keeps_only_findings_about_the_code() {
    let objs = r#""model": {"type": "keras.src.models.functional.Functional", "kind": "keras_model"},
        "test_ds": {"type": "tensorflow.python.data.ops.prefetch_op._PrefetchDataset", "kind": "tf_dataset"},
        "df": {"type": "pandas.core.frame.DataFrame", "kind": "dataframe", "S": {"shape": [3, 1]}, "R": {"columns": ["a"]}}"#;
    let t = "for x, y in test_ds:\n    p = model.predict_classes(x)";
    fires(
        &run(&[IMPORTS], t, objs),
        t,
        "missing-attribute",
        "predict_classes",
        &["removed"],
    );
    silent(&run(
        &[IMPORTS],
        "for x, y in test_ds:\n    p = model.predict(x)",
        objs,
    ));
    // Findings about data are not kept: the loop may not run.
    silent(&run(&[IMPORTS], "for x, y in test_ds:\n    df['b']", objs));
    // Nor is code after a jump.
    silent(&run(
        &[IMPORTS],
        "for x, y in test_ds:\n    break\n    model.predict_classes(x)",
        objs,
    ));
}

// ---------- confusion matrix display

const PREDS: &str = r#""y_test": {"type": "pandas.core.series.Series", "kind": "series", "S": {"shape": [38]},
        "V": {"unique": 3, "examples": ["setosa", "versicolor", "virginica"]}},
    "y_pred": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [38]}, "R": {"dtype": "object"}, "V": {"unique": 3}}"#;

#[test]
fn display_labels_must_match_the_classes() {
    let t = "from sklearn import metrics\ncm = metrics.confusion_matrix(y_test, y_pred)\nd = metrics.ConfusionMatrixDisplay(confusion_matrix=cm, display_labels=[False, True])\nd.plot()";
    fires(
        &run(&[IMPORTS], t, PREDS),
        t,
        "sklearn-display-labels",
        "d.plot()",
        &["2 display_labels", "at least 3 classes"],
    );
    silent(&run(&[IMPORTS], "from sklearn import metrics\ncm = metrics.confusion_matrix(y_test, y_pred)\nd = metrics.ConfusionMatrixDisplay(confusion_matrix=cm, display_labels=['a', 'b', 'c'])\nd.plot()", PREDS));
    silent(&run(&[IMPORTS], "from sklearn import metrics\ncm = metrics.confusion_matrix(y_test, y_pred)\nd = metrics.ConfusionMatrixDisplay(cm)\nd.plot()", PREDS));
    // Explicit labels fix the classes.
    let t = "from sklearn.metrics import ConfusionMatrixDisplay\nConfusionMatrixDisplay.from_predictions(y_test, y_pred, labels=['a', 'b'], display_labels=['x', 'y', 'z'])";
    fires(
        &run(&[IMPORTS], t, PREDS),
        t,
        "sklearn-display-labels",
        &t[t.find("ConfusionMatrixDisplay.from").unwrap()..],
        &["3 display_labels", "of 2 classes"],
    );
    silent(&run(&[IMPORTS], "from sklearn.metrics import ConfusionMatrixDisplay\nConfusionMatrixDisplay.from_predictions(y_test, y_pred, display_labels=['x', 'y', 'z', 'w'])", PREDS));
    // y_pred changed in the cell: its summary no longer holds.
    silent(&run(&[IMPORTS], "from sklearn import metrics\ny_pred[0] = 'x'\ncm = metrics.confusion_matrix(y_pred, y_pred)\nd = metrics.ConfusionMatrixDisplay(cm, display_labels=[0])\nd.plot()", PREDS));
}

#[test]
fn statsmodels_qqplot_line_takes_strings() {
    let t = "fig = sm.qqplot(df['Age'], line=45, fit=True)";
    fires(
        &run(&[IMPORTS, "import statsmodels.api as sm"], t, TITANIC),
        t,
        "bad-arguments",
        "line=45",
        &["'45'"],
    );
    silent(&run(
        &[IMPORTS, "import statsmodels.api as sm"],
        "fig = sm.qqplot(df['Age'], line='45', fit=True)\nfig = sm.qqplot(df['Age'], line=None)",
        TITANIC,
    ));
}

#[test]
fn train_test_split_parts_keep_columns_and_fix_rows() {
    let t = "X_train, X_test, y_train, y_test = train_test_split(df, df['Age'], test_size=0.2)\nX_train['Fare']";
    fires(
        &run(&[IMPORTS, SK], t, TITANIC),
        t,
        "missing-column",
        "'Fare'",
        &["'Fare'"],
    );
    silent(&run(
        &[IMPORTS, SK],
        "X_train, X_test, y_train, y_test = train_test_split(df, df['Age'], test_size=0.2)\nX_train['Age']",
        TITANIC,
    ));
    // m has 10 rows: the test part has 2 (3 columns), 6 elements in all.
    let t = "a, b = train_test_split(m, test_size=0.2)\nb.reshape(4, -1)";
    fires(
        &run(&[IMPORTS, SK], t, ARR),
        t,
        "shape-reshape",
        "b.reshape(4, -1)",
        &["6 elements"],
    );
    silent(&run(
        &[IMPORTS, SK],
        "a, b = train_test_split(m, test_size=0.2)\nb.reshape(3, -1)\na.reshape(4, -1)",
        ARR,
    ));
}

#[test]
fn some_rows_may_lack_the_values_the_frame_showed() {
    // The rows kept may not hold '46.0' (nor NaN).
    silent(&run(
        &[IMPORTS],
        "d2 = d[d['n'] > 0]\nd2['code'].astype(int)\nd2['n'].astype(int)",
        STRS,
    ));
    let t = "d2 = d[d['n'] > 0]\nd2['nope']";
    fires(
        &run(&[IMPORTS], t, STRS),
        t,
        "missing-column",
        "'nope'",
        &[],
    );
}

// ---------- precision audit: programs that run, next to the crashes they resemble

#[test]
fn methods_that_drop_rows_or_change_values_forget_the_values_seen() {
    // dropna and fillna remove the NaN; head may leave '46.0' out; replace may rewrite it.
    silent(&run(
        &[IMPORTS],
        "d = d.dropna()\nd['n'].astype(int)\nd2 = d.fillna(0)\nd2['n'].astype(int)",
        STRS,
    ));
    silent(&run(&[IMPORTS], "d.head(2)['code'].astype(int)", STRS));
    silent(&run(
        &[IMPORTS],
        "d = d.replace({'46.0': '46'})\nd['code'].astype(int)",
        STRS,
    ));
    silent(&run(
        &[IMPORTS],
        "d = d.assign(code=1)\nd['code'].astype(int)",
        STRS,
    ));
    // Sorting keeps every value.
    let t = "d.sort_values('n')['code'].astype(int)";
    fires(
        &run(&[IMPORTS], t, STRS),
        t,
        "value-conversion",
        t,
        &["'46.0'"],
    );
}

#[test]
fn in_place_changes_through_a_column_or_another_name() {
    // pandas 2 without copy-on-write fills the frame's column.
    silent(&run(
        &[IMPORTS],
        "d['n'].fillna(0, inplace=True)\nd['n'].astype(int)",
        STRS,
    ));
    // `e` is the same frame as `d`.
    silent(&run(
        &[IMPORTS],
        "e = d\ne['n'] = 0\nd['n'].astype(int)",
        STRS,
    ));
    silent(&run(
        &[IMPORTS],
        "e = d\ne.fillna(0, inplace=True)\nd['n'].astype(int)",
        STRS,
    ));
    silent(&run(
        &[IMPORTS],
        "s = d['n']\ns.fillna(0, inplace=True)\nd['n'].astype(int)",
        STRS,
    ));
}

#[test]
fn an_empty_text_is_nan_to_to_numeric() {
    let objs = r#""s": {"type": "pandas.core.series.Series", "kind": "series", "S": {"shape": [3]},
        "V": {"kind": "text", "examples": ["1", ""]}}"#;
    silent(&run(&[IMPORTS], "pd.to_numeric(s)", objs));
    let t = "s.astype(float)";
    fires(&run(&[IMPORTS], t, objs), t, "value-conversion", t, &["''"]);
}

#[test]
fn cut_examples_and_unicode_digits_may_be_numbers() {
    let objs = r#""s": {"type": "pandas.core.series.Series", "kind": "series", "S": {"shape": [3]},
        "V": {"kind": "text", "examples": ["1234567890123456789012345678901234567…", "٣"]}},
        "t": {"type": "pandas.core.series.Series", "kind": "series", "S": {"shape": [3]},
        "V": {"kind": "text", "examples": ["Oslo is a city in Norway and has a lo…"]}}"#;
    silent(&run(&[IMPORTS], "s.astype(float)\npd.to_numeric(s)", objs));
    let t = "t.astype(float)";
    fires(
        &run(&[IMPORTS], t, objs),
        t,
        "value-conversion",
        t,
        &["Oslo"],
    );
}

#[test]
fn date_columns_match_partial_strings() {
    let objs = r#""dd": {"type": "pandas.core.frame.DataFrame", "kind": "dataframe", "S": {"shape": [2, 2]},
        "R": {"columns": ["2020-01-01 00:00:00", "2020-01-02 00:00:00"]}}"#;
    silent(&run(
        &[IMPORTS],
        "dd['2020-01-02']\ndd.loc[:, '2020-01']",
        objs,
    ));
}

#[test]
fn frame_attributes_libraries_add() {
    let geo = r#""gdf": {"type": "geopandas.geodataframe.GeoDataFrame", "kind": "dataframe", "S": {"shape": [2, 2]},
        "R": {"columns": ["name", "geometry"]}}"#;
    silent(&run(&[IMPORTS], "gdf.crs\ngdf.to_crs(4326)", geo));
    let t = "gdf['nope']";
    fires(&run(&[IMPORTS], t, geo), t, "missing-column", "'nope'", &[]);
    // tqdm.pandas() registers progress_apply; an accessor registered in an earlier cell.
    silent(&run(
        &[IMPORTS, "from tqdm import tqdm\ntqdm.pandas()"],
        "df.progress_apply(len, axis=1)",
        TITANIC,
    ));
    let accessor = "@pd.api.extensions.register_dataframe_accessor('stats2')\nclass Stats:\n    def __init__(self, df):\n        self.df = df";
    silent(&run(&[IMPORTS, accessor], "df.stats2.df", TITANIC));
    silent(&run(
        &[IMPORTS, "import pandas_ta"],
        "df.rsi_14 = 1\ndf.vwap_band",
        TITANIC,
    ));
    let t = "df.stats2";
    fires(
        &run(&[IMPORTS], t, TITANIC),
        t,
        "missing-column",
        "stats2",
        &[],
    );
}

#[test]
fn by_names_may_be_index_levels() {
    // value_counts().to_frame() names its index after the column.
    let vc = r#""vc": {"type": "pandas.core.frame.DataFrame", "kind": "dataframe", "S": {"shape": [2, 1]},
        "R": {"columns": ["count"], "index": "Index"}}"#;
    silent(&run(
        &[IMPORTS],
        "vc.sort_values('Sex')\nvc.groupby('Sex').sum()",
        vc,
    ));
    let ranged = r#""vc": {"type": "pandas.core.frame.DataFrame", "kind": "dataframe", "S": {"shape": [2, 1]},
        "R": {"columns": ["count"], "index": "RangeIndex"}}"#;
    let t = "vc.sort_values('Sex')";
    fires(
        &run(&[IMPORTS], t, ranged),
        t,
        "missing-column",
        "'Sex'",
        &[],
    );
    // An earlier cell resampled: the result's index is named.
    silent(&run(
        &[IMPORTS, "m = df.resample('M', on='date').sum()"],
        "df.sort_values('date')",
        TITANIC,
    ));
}

#[test]
fn each_frame_answers_for_its_own_index() {
    let kernel = |index_names: &str| {
        format!(
            r#""df": {{"type": "pandas.core.frame.DataFrame", "kind": "dataframe", "S": {{"shape": [3, 2]}},
            "R": {{"columns": ["name", "age"], "columns_complete": true, "index": "RangeIndex"{index_names}}}}}"#
        )
    };
    // An earlier cell named another frame's index; the kernel says this one's is unnamed.
    let named_elsewhere = [IMPORTS, "other = pd.DataFrame({'k': [1]}).set_index('k')"];
    let t = "df.sort_values('k')";
    let unnamed = kernel(r#", "index_names": [null]"#);
    fires(
        &run(&named_elsewhere, t, &unnamed),
        t,
        "missing-column",
        "'k'",
        &["sort key 'k' is not a column of df"],
    );
    // An older kernel that does not report the names: the index may be named.
    silent(&run(&named_elsewhere, t, &kernel("")));
    // Its own level name is accepted; a name no level has is not.
    let keyed = kernel(r#", "index_names": ["k"]"#);
    silent(&run(
        &[IMPORTS],
        "df.sort_values('k')\ndf.groupby('k').size()",
        &keyed,
    ));
    let t = "df.groupby('key').size()";
    fires(
        &run(&[IMPORTS], t, &keyed),
        t,
        "missing-column",
        "'key'",
        &["group key"],
    );
    // A frame built in the cell, indexed by set_index there: the key is a level (no earlier cell
    // names any index).
    silent(&run(
        &[IMPORTS],
        "f = pd.DataFrame({'a': [1, 2], 'b': [3, 4]})\nf.set_index('a', inplace=True)\nf.sort_values('a')",
        "",
    ));
}

#[test]
fn index_names_not_known_are_silent() {
    let frame = "f = pd.DataFrame({'a': [1, 2], 'b': [3, 4]})\n";
    for then in [
        // A name not written in the cell.
        "f.index.name = label\nf.sort_values('x')",
        "f = f.rename_axis(label)\nf.sort_values('x')",
        // Values of unknown type may be Series that bring their named index.
        "f = pd.DataFrame({'a': s, 'b': s})\nf.sort_values('x')",
        // ignore_index= not written as a literal: the name 'x' may be gone.
        "f = f.rename_axis('x').sort_values('a', ignore_index=flag)\nf.sort_values('x')",
        // merged with right_index=True: the left frame's index may be kept.
        "o = pd.DataFrame({'c': [2]}).rename_axis('x')\ng = f.rename_axis('x').merge(o, left_on='a', right_index=True)\ng.sort_values('x')",
        // concat with a frame whose index names are unknown.
        "g = pd.concat([f.set_index('a'), pd.DataFrame({'b': s})])\ng.sort_values('a')",
    ] {
        let t = format!("{frame}{then}");
        silent(&run(&[IMPORTS, "label, s, flag, other = load()"], &t, ""));
    }
    // A MultiIndex keeps its names when given one `name`.
    silent(&run(
        &[IMPORTS],
        "f = pd.DataFrame({'a': [1], 'b': [2], 'c': [3]}).set_index(['a', 'b'])\nf.index.name = 'z'\nf.groupby('a').size()",
        "",
    ));
}

#[test]
fn row_labels_known_only_while_nothing_relabels_the_rows() {
    let people =
        "people = pd.DataFrame({'name': ['Ana', 'Bo'], 'age': [31, 25]}).set_index('name')\n";
    let t = format!("{people}people.loc['Dan']");
    fires(
        &run(&[IMPORTS], &t, ""),
        &t,
        "missing-column",
        "'Dan'",
        &["no row label"],
    );
    for then in [
        // Slices, relabelled rows, a row added by assignment, a label not known.
        "people.loc['A':'C']",
        "people.rename(index={'Ana': 'Dan'}).loc['Dan']",
        "people.loc['Dan'] = [40]\npeople.loc['Dan']",
        "people.loc[who]",
        // Labels of a column not written in the cell.
        "people.reset_index().assign(name=names).set_index('name').loc['Dan']",
    ] {
        silent(&run(
            &[IMPORTS, "who, names = load()"],
            &format!("{people}{then}"),
            "",
        ));
    }
}

#[test]
fn magics_and_exec_may_rebind_anything() {
    for t in [
        "%run prep.py\ndf['Fare']",
        "%store -r df\ndf['Fare']",
        "exec(open('prep.py').read())\ndf['Fare']",
        "globals()['df'] = pd.DataFrame()\ndf['Fare']",
    ] {
        silent(&run(&[IMPORTS], t, TITANIC));
    }
    let t = "%matplotlib inline\ndf['Fare']";
    fires(
        &run(&[IMPORTS], t, TITANIC),
        t,
        "missing-column",
        "'Fare'",
        &[],
    );
    // `files = !ls` is not an empty list.
    silent(&run(&[], "files = !ls\nfiles[0]\nx = %sx ls\nx[1]", ""));
    // A star import may rebind a module's name to its function.
    silent(&run(
        &["import tqdm", "from tqdm.auto import *"],
        "for x in tqdm(range(3)):\n    pass",
        "",
    ));
    silent(&run(
        &["import tqdm"],
        "from tqdm.auto import *\nfor x in tqdm(range(3)):\n    pass",
        "",
    ));
}

const SK2: &str = "from sklearn.preprocessing import Normalizer, StandardScaler\nfrom sklearn.neighbors import KNeighborsClassifier\nfrom sklearn.ensemble import HistGradientBoostingClassifier\nfrom sklearn.linear_model import LogisticRegression";

#[test]
fn estimators_that_need_no_fit_or_keep_their_own_state() {
    silent(&run(&[SK2], "n = Normalizer()\nn.transform(X_ok)", XY));
    let t = "s = StandardScaler()\ns.transform(X_ok)";
    fires(
        &run(&[SK2], t, XY),
        t,
        "sklearn-not-fitted",
        "s.transform(X_ok)",
        &[],
    );
    // A user's class: check_is_fitted does not know where it keeps its state.
    let mine = r#""mm": {"type": "__main__.MyModel", "kind": "estimator", "V": {"fitted": false}},
        "pn": {"type": "sklearn.pipeline.Pipeline", "kind": "estimator", "R": {"steps": [["n", "sklearn.preprocessing._data.Normalizer"]]}, "V": {"fitted": false}},
        "X_ok": {"type": "pandas.core.frame.DataFrame", "kind": "dataframe", "S": {"shape": [20, 58]}}"#;
    silent(&run(&[], "mm.predict(X_ok)\npn.transform(X_ok)", mine));
}

#[test]
fn column_selecting_estimators_and_inverse_transform() {
    let objs = r#""pipe": {"type": "sklearn.pipeline.Pipeline", "kind": "estimator", "S": {"n_features_in": 58},
            "R": {"feature_names_in": ["a", "b"], "steps": [["ct", "sklearn.compose._column_transformer.ColumnTransformer"], ["m", "sklearn.linear_model._base.LinearRegression"]]}, "V": {"fitted": true}},
        "pca": {"type": "sklearn.decomposition._pca.PCA", "kind": "estimator", "S": {"n_features_in": 58}, "V": {"fitted": true}},
        "X_test": {"type": "pandas.core.frame.DataFrame", "kind": "dataframe", "S": {"shape": [20, 53]}},
        "small": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [20, 5]}}"#;
    silent(&run(
        &[],
        "pipe.predict(X_test)\npca.inverse_transform(small)",
        objs,
    ));
    let t = "pca.transform(small)";
    fires(
        &run(&[], t, objs),
        t,
        "sklearn-feature-mismatch",
        "small",
        &["58 features"],
    );
}

#[test]
fn nan_and_strings_some_estimators_take() {
    silent(&run(
        &[SK2],
        "k = KNeighborsClassifier(metric='nan_euclidean')\nk.fit(X_nan, [0] * 20)",
        XY,
    ));
    let t = "k = KNeighborsClassifier()\nk.fit(X_nan, [0])";
    fires(&run(&[SK2], t, XY), t, "sklearn-nan-input", "X_nan", &[]);
    let cats = r#""dc": {"type": "pandas.core.frame.DataFrame", "kind": "dataframe", "S": {"shape": [4, 2]},
        "R": {"columns": ["a", "b"], "dtypes": {"a": "category", "b": "float64"}},
        "V": {"has_nan": false, "column_values": {"a": {"kind": "binary", "examples": ["x", "y"]}}}}"#;
    silent(&run(
        &[SK2],
        "h = HistGradientBoostingClassifier()\nh.fit(dc, [0, 1, 0, 1])",
        cats,
    ));
    let t = "m = LogisticRegression()\nm.fit(dc, [0, 1, 0, 1])";
    fires(
        &run(&[SK2], t, cats),
        t,
        "sklearn-string-input",
        "dc",
        &["'a'"],
    );
    // Other libraries' models validate differently.
    let xgb = r#""xg": {"type": "xgboost.sklearn.XGBClassifier", "kind": "estimator", "S": {"n_features_in": 1}, "V": {"fitted": true}},
        "empty": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [0, 1]}}"#;
    silent(&run(&[], "xg.predict(empty)", xgb));
}

#[test]
fn array_subclasses_are_not_followed() {
    let objs = r#""a": {"type": "numpy.matrix", "kind": "ndarray", "S": {"shape": [3, 4]}},
        "b": {"type": "numpy.matrix", "kind": "ndarray", "S": {"shape": [4, 5]}},
        "c": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [3, 4]}},
        "e": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [4, 5]}}"#;
    silent(&run(&[IMPORTS], "p = a * b", objs));
    let t = "p = c * e";
    fires(
        &run(&[IMPORTS], t, objs),
        t,
        "shape-broadcast",
        "c * e",
        &[],
    );
}

// ---------- keras targets

fn keras_objects(loss: &str, units: i64, class_mode: &str, num_classes: i64) -> String {
    format!(
        r#""model": {{"type": "keras.src.models.functional.Functional", "kind": "keras_model",
            "S": {{"input_shape": [null, 224, 224, 3], "output_shape": [null, {units}], "n_layers": 5}},
            "R": {{"loss": "{loss}", "layers": [{{"name": "dense", "class": "Dense", "units": {units}, "activation": "softmax"}}]}},
            "V": {{"output_units": {units}, "output_activation": "softmax", "compiled": true}}}},
        "train_images": {{"type": "keras.src.legacy.preprocessing.image.DataFrameIterator", "kind": "keras_iterator",
            "S": {{"samples": 44, "batch_size": 32, "image_shape": [224, 224, 3]}},
            "R": {{"class_mode": "{class_mode}", "color_mode": "rgb"}}, "V": {{"num_classes": {num_classes}}}}},
        "x_train": {{"type": "numpy.ndarray", "kind": "ndarray", "S": {{"shape": [100, 224, 224, 3]}}}},
        "y_idx": {{"type": "numpy.ndarray", "kind": "ndarray", "S": {{"shape": [100]}}}},
        "y_hot": {{"type": "numpy.ndarray", "kind": "ndarray", "S": {{"shape": [100, 5]}}}}"#
    )
}

#[test]
fn keras_output_units_must_match_the_classes() {
    let t = "history = model.fit(train_images, epochs=3)";
    let objs = keras_objects("categorical_crossentropy", 5, "categorical", 2);
    fires(
        &run(&[], t, &objs),
        t,
        "keras-target-mismatch",
        "model.fit(train_images, epochs=3)",
        &["2 classes", "5 units"],
    );
    // As many units as classes; a custom loss; compiled again in the cell; one output unit.
    silent(&run(
        &[],
        t,
        &keras_objects("categorical_crossentropy", 2, "categorical", 2),
    ));
    silent(&run(&[], t, &keras_objects("my_loss", 5, "categorical", 2)));
    silent(&run(
        &[],
        "model.compile(optimizer='adam', loss='mse')\nmodel.fit(train_images)",
        &objs,
    ));
    silent(&run(&[], t, &keras_objects("mse", 1, "categorical", 2)));
}

#[test]
fn keras_losses_must_fit_the_targets() {
    let t = "model.fit(train_images)";
    fires(
        &run(
            &[],
            t,
            &keras_objects("sparse_categorical_crossentropy", 3, "categorical", 3),
        ),
        t,
        "keras-target-mismatch",
        t,
        &["class indices"],
    );
    silent(&run(
        &[],
        t,
        &keras_objects("sparse_categorical_crossentropy", 3, "sparse", 3),
    ));
    let objs = keras_objects("categorical_crossentropy", 5, "categorical", 5);
    let t = "model.fit(x_train, y_idx, epochs=2)";
    fires(
        &run(&[], t, &objs),
        t,
        "keras-target-mismatch",
        t,
        &["y_idx", "sparse_categorical_crossentropy"],
    );
    silent(&run(&[], "model.fit(x_train, y_hot, epochs=2)", &objs));
    silent(&run(
        &[],
        "model.fit(x_train, y_idx, epochs=2)",
        &keras_objects("sparse_categorical_crossentropy", 5, "categorical", 5),
    ));
}

/// A model built and compiled by executed cells; the kernel reports only its class.
const KERAS_BUILT: &str = r#""model": {"type": "keras.src.models.functional.Functional"},
    "seq": {"type": "keras.src.models.sequential.Sequential"},
    "train_images": {"type": "keras.src.legacy.preprocessing.image.DataFrameIterator", "kind": "keras_iterator",
        "S": {"samples": 44, "batch_size": 32}, "R": {"class_mode": "categorical"}, "V": {"num_classes": 2}},
    "x_train": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [100, 8]}},
    "y_idx": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [100]}},
    "y_hot": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [100, 3]}}"#;

fn keras_built_objects() -> String {
    KERAS_BUILT
        .replace(
            r#""model": {"type": "keras.src.models.functional.Functional"}"#,
            r#""model": {"type": "keras.src.models.functional.Functional", "kind": "keras_model"}"#,
        )
        .replace(
            r#""seq": {"type": "keras.src.models.sequential.Sequential"}"#,
            r#""seq": {"type": "keras.src.models.sequential.Sequential", "kind": "keras_model"}"#,
        )
}

const KERAS_STAR: &str = "import tensorflow as tf\nfrom tensorflow.keras.layers import *\nfrom tensorflow.keras.models import *\nfrom tensorflow.keras.optimizers import *";

fn create_model(last: &str) -> String {
    format!(
        "def create_model(input_shape=(224, 224, 3)):\n    inputs = Input(input_shape)\n    base = tf.keras.applications.EfficientNetB1(include_top=False)\n    x = base(inputs)\n    x = GlobalAveragePooling2D()(x)\n    x = Dense(56, activation='relu')(x)\n    x = Dropout(0.1)(x)\n    outputs = {last}(x)\n    model = Model(inputs, outputs)\n    return model"
    )
}

#[test]
fn keras_models_built_by_executed_cells() {
    let objs = keras_built_objects();
    let t = "history = model.fit(train_images, epochs=3)";
    let def = create_model("Dense(5, activation='sigmoid')");
    let built = "model = create_model((224, 224, 3))";
    let compiled = "model.compile(optimizer=Adam(), loss='categorical_crossentropy')";
    fires(
        &run(&[KERAS_STAR, &def, built, compiled], t, &objs),
        t,
        "keras-target-mismatch",
        "model.fit(train_images, epochs=3)",
        &["2 classes", "5 units", "categorical_crossentropy"],
    );
    // Built and compiled in a `with` block; the loss as a class of keras.losses.
    let scoped = format!("strategy = tf.distribute.get_strategy()\nwith strategy.scope():\n    {built}\n    model.compile(optimizer='adam', loss=tf.keras.losses.CategoricalCrossentropy())");
    fires(
        &run(&[KERAS_STAR, &def, &scoped], t, &objs),
        t,
        "keras-target-mismatch",
        "model.fit(train_images, epochs=3)",
        &["5 units", "CategoricalCrossentropy"],
    );
    // As many units as classes.
    let two = create_model("Dense(2, activation='softmax')");
    silent(&run(&[KERAS_STAR, &two, built, compiled], t, &objs));
    // The units from a parameter; a loss the code does not name; not compiled.
    let param = create_model("Dense(n, activation='softmax')").replace(
        "input_shape=(224, 224, 3)",
        "n=5, input_shape=(224, 224, 3)",
    );
    silent(&run(&[KERAS_STAR, &param, built, compiled], t, &objs));
    silent(&run(
        &[
            KERAS_STAR,
            &def,
            built,
            "model.compile(optimizer='adam', loss=my_loss)",
        ],
        t,
        &objs,
    ));
    // Never compiled: no loss to check the targets against; `fit` raises for that instead.
    let uncompiled = run(&[KERAS_STAR, &def, built], t, &objs);
    assert!(uncompiled.iter().all(|d| d.code != "keras-target-mismatch"));
    fires(
        &uncompiled,
        t,
        "keras-not-compiled",
        "model.fit(train_images, epochs=3)",
        &["compile"],
    );
    // The model may have changed since: handed to a function, compiled by one of the notebook's
    // functions, rebound by an unknown call, or the kernel holds a model of another class.
    for later in [
        "tune(model)",
        "def recompile():\n    model.compile(loss='mse')\nrecompile()",
        "model = load_model('m.keras')",
        "model.pop()",
    ] {
        silent(&run(&[KERAS_STAR, &def, built, compiled, later], t, &objs));
    }
    silent(&run(
        &[KERAS_STAR, &def, built, compiled],
        t,
        &objs.replace(
            "models.functional.Functional",
            "models.sequential.Sequential",
        ),
    ));
    // The model summary tells the output and loss itself.
    silent(&run(
        &[KERAS_STAR, &def, built, compiled],
        t,
        &objs.replace(
            r#""kind": "keras_model"}"#,
            r#""kind": "keras_model", "S": {"output_shape": [null, 2]}, "R": {"loss": "categorical_crossentropy"}}"#,
        ),
    ));
}

#[test]
fn keras_models_built_by_executed_cells_need_known_layers() {
    let objs = keras_built_objects();
    let t = "history = model.fit(train_images, epochs=3)";
    let built = "model = create_model((224, 224, 3))";
    let compiled = "model.compile(optimizer=Adam(), loss='categorical_crossentropy')";
    let def = create_model("Dense(5, activation='sigmoid')");
    // `Dense` is not Keras's; another star import may have rebound the names; a body with a
    // branch; the rank of the output is not known (a layer of unknown effect before `Dense`).
    for cells in [
        vec![
            KERAS_STAR,
            "def Dense(n, **kw):\n    return tf.keras.layers.Dense(n + 1)",
            &def,
            built,
            compiled,
        ],
        vec![KERAS_STAR, "from mylayers import *", &def, built, compiled],
    ] {
        silent(&run(&cells, t, &objs));
    }
    let branch = def.replace(
        "    model = Model(",
        "    if True:\n        pass\n    model = Model(",
    );
    silent(&run(&[KERAS_STAR, &branch, built, compiled], t, &objs));
    let unknown_rank = def.replace("GlobalAveragePooling2D()(x)", "Conv2D(8, 3)(x)");
    silent(&run(
        &[KERAS_STAR, &unknown_rank, built, compiled],
        t,
        &objs,
    ));
}

#[test]
fn keras_sequential_models_built_by_executed_cells() {
    let objs = keras_built_objects();
    let imports = "from tensorflow import keras\nfrom tensorflow.keras import layers";
    let listed = "n_classes = 3\nseq = keras.Sequential([layers.Flatten(input_shape=(28, 28)), layers.Dense(64, activation='relu'), layers.Dense(n_classes, activation='softmax')])\nseq.compile(loss='categorical_crossentropy', optimizer='adam')";
    let t = "seq.fit(train_images)";
    fires(
        &run(&[imports, listed], t, &objs),
        t,
        "keras-target-mismatch",
        t,
        &["2 classes", "3 units"],
    );
    silent(&run(&[imports, listed], "seq.fit(x_train, y_hot)", &objs));
    let added = "seq = keras.Sequential()\nseq.add(layers.Dense(16, input_dim=8, activation='relu'))\nseq.add(layers.Dense(3, activation='softmax'))\nseq.summary()\nseq.compile(optimizer='adam', loss='sparse_categorical_crossentropy')";
    let t = "seq.fit(x_train, y_hot, epochs=2)";
    fires(
        &run(&[imports, added], t, &objs),
        t,
        "keras-target-mismatch",
        t,
        &["y_hot", "class indices"],
    );
    silent(&run(
        &[imports, added],
        "seq.fit(x_train, y_idx, epochs=2)",
        &objs,
    ));
    // Without an input shape the rank of the output is not known.
    let unshaped = added.replace(", input_dim=8", "");
    silent(&run(&[imports, &unshaped], t, &objs));
}

const BERT_INPUTS: &str = r#""train_input": {"type": "dict", "kind": "dict", "S": {"length": 3,
        "value_shapes": {"input_word_ids": [8, 172], "input_mask": [8, 172], "input_type_ids": [8, 172]}}},
    "labels": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [8]}}"#;

fn build_model(max_len: &str) -> String {
    format!(
        "import tensorflow as tf\nmax_len = {max_len}\ndef build_model():\n    encoder = TFBertModel.from_pretrained(name)\n    ids = tf.keras.Input(shape=(max_len,), dtype=tf.int32, name='input_word_ids')\n    mask = tf.keras.Input(shape=(max_len,), dtype=tf.int32, name='input_mask')\n    types = tf.keras.Input(shape=(max_len,), dtype=tf.int32, name='input_type_ids')\n    embedding = encoder([ids, mask, types])[0]\n    output = tf.keras.layers.Dense(3, activation='softmax')(embedding[:, 0, :])\n    model = tf.keras.Model(inputs=[ids, mask, types], outputs=output)\n    model.compile(tf.keras.optimizers.Adam(1e-5), loss='sparse_categorical_crossentropy')\n    return model"
    )
}

#[test]
fn keras_inputs_must_take_the_data() {
    let scoped = "with strategy.scope():\n    model = build_model()\n    model.summary()";
    let t = "model.fit(train_input, labels, epochs=2, validation_split=0.2)";
    let def = build_model("50");
    fires(
        &run(&[&def, scoped], t, BERT_INPUTS),
        t,
        "keras-input-mismatch",
        t,
        &[
            "'input_word_ids'",
            "(None, 50)",
            "train_input['input_word_ids']",
            "(8, 172)",
            "ValueError",
        ],
    );
    // The length the data has; a length the code does not tell; a key missing from the dict.
    silent(&run(&[&build_model("172"), scoped], t, BERT_INPUTS));
    silent(&run(
        &[
            &build_model("train_input['input_word_ids'].shape[1]"),
            scoped,
        ],
        t,
        BERT_INPUTS,
    ));
    silent(&run(
        &[&def, scoped],
        t,
        &BERT_INPUTS.replace(
            "\"input_type_ids\": [8, 172]",
            "\"token_type_ids\": [8, 172]",
        ),
    ));
    // The model may be another one now: rebuilt or changed in the cell, or by a later cell.
    let rebuild = "def rebuild(m):\n    return m";
    silent(&run(
        &[&def, scoped, rebuild],
        &format!("model = rebuild(model)\n{t}"),
        BERT_INPUTS,
    ));
    silent(&run(
        &[&def, scoped, rebuild],
        &format!("rebuild(model)\n{t}"),
        BERT_INPUTS,
    ));
    silent(&run(
        &[&def, scoped, "model = load_model('best.keras')"],
        t,
        BERT_INPUTS,
    ));
    // The data changed in the cell.
    for change in [
        "train_input['input_word_ids'] = train_input['input_word_ids'][:, :50]",
        "train_input.update(short)",
        "truncate(train_input)",
    ] {
        silent(&run(
            &[&def, scoped, "short = {}\ndef truncate(d):\n    pass"],
            &format!("{change}\n{t}"),
            BERT_INPUTS,
        ));
    }
    // The kernel summarized `model` as something else: no Keras model (a dict has no `fit`
    // at all, which `missing-attribute` says).
    let d = run(
        &[&def, scoped],
        t,
        &format!(r#"{BERT_INPUTS}, "model": {{"type": "dict", "kind": "dict"}}"#),
    );
    assert!(d.iter().all(|d| d.code == "missing-attribute"), "{d:#?}");
    silent(&run(
        &[&def, scoped],
        t,
        &format!(r#"{BERT_INPUTS}, "model": {{"type": "mylib.Model", "kind": "object"}}"#),
    ));
}

#[test]
fn keras_inputs_from_the_kernel_summary() {
    let objs = |class: &str, first: &str| {
        format!(
            r#""model": {{"type": "keras.src.models.{class}", "kind": "keras_model",
                "S": {{"input_shape": [null, 8], "output_shape": [null, 1]}},
                "R": {{"layers": [{{"name": "l0", "class": "{first}"}}], "loss": "mse"}}}},
            "x_wide": {{"type": "numpy.ndarray", "kind": "ndarray", "S": {{"shape": [100, 10]}}}},
            "x_ok": {{"type": "numpy.ndarray", "kind": "ndarray", "S": {{"shape": [100, 8]}}}},
            "x_col": {{"type": "numpy.ndarray", "kind": "ndarray", "S": {{"shape": [100, 1]}}}},
            "df": {{"type": "pandas.core.frame.DataFrame", "kind": "dataframe", "S": {{"shape": [100, 9]}},
                "R": {{"columns": ["a", "b", "c", "d", "e", "f", "g", "h", "i"], "columns_complete": true}}}}"#
        )
    };
    let functional = objs("functional.Functional", "Dense");
    let t = "preds = model.predict(x_wide)";
    fires(
        &run(&[], t, &functional),
        t,
        "keras-input-mismatch",
        "model.predict(x_wide)",
        &["(None, 8)", "x_wide", "(100, 10)", "axis 1 is 10, not 8"],
    );
    let t = "model.fit(df, epochs=3)";
    fires(
        &run(&[], t, &functional),
        t,
        "keras-input-mismatch",
        t,
        &["(100, 9)"],
    );
    let sequential = objs("sequential.Sequential", "Dense");
    fires(
        &run(&[], t, &sequential),
        t,
        "keras-input-mismatch",
        t,
        &["(None, 8)"],
    );
    silent(&run(&[], "model.fit(x_ok, epochs=3)", &functional));
    // An axis of 1 may be squeezed; a Sequential model whose first layer need not check the
    // number of features.
    silent(&run(&[], "model.fit(x_col, epochs=3)", &functional));
    silent(&run(
        &[],
        t,
        &objs("sequential.Sequential", "Normalization"),
    ));
}

#[test]
fn keras_utilities_take_keras_models_only() {
    let objs = r#""bert_model": {"type": "transformers.models.bert.modeling_bert.BertModel", "kind": "torch_module"},
        "model": {"type": "keras.src.models.functional.Functional", "kind": "keras_model"}"#;
    let t = "import tensorflow as tf\ntf.keras.utils.plot_model(bert_model)";
    fires(
        &run(&[], t, objs),
        t,
        "keras-foreign-model",
        "tf.keras.utils.plot_model(bert_model)",
        &["bert_model", "PyTorch", "BertModel", "AttributeError"],
    );
    let t = "from keras.utils import model_to_dot\ndot = model_to_dot(model=bert_model)";
    fires(
        &run(&[], t, objs),
        t,
        "keras-foreign-model",
        "model_to_dot(model=bert_model)",
        &["bert_model"],
    );
    // A Keras model; another library's plot_model; the name rebound in the cell.
    silent(&run(
        &[],
        "import tensorflow as tf\ntf.keras.utils.plot_model(model)",
        objs,
    ));
    silent(&run(
        &[],
        "from torchviz import plot_model\nplot_model(bert_model)",
        objs,
    ));
    silent(&run(
        &[],
        "import tensorflow as tf\nbert_model = tf.keras.Sequential()\ntf.keras.utils.plot_model(bert_model)",
        objs,
    ));
}

// ---------- calls of the notebook's own functions

const VARS: &str = "m = a = b = 1\nparts = [1, 2, 3]\nkw = {}";

const DEFS: &str = "def train(model, X, y, epochs=10, *, verbose=False):\n    return model\n\ndef show(*images, **options):\n    pass";

#[test]
fn calls_must_fit_the_notebook_functions() {
    for (t, fact) in [
        ("train(m, a, b, 5, 6)", "takes 4 positional arguments but 5"),
        ("train(m, a)", "missing 1 required argument: 'y'"),
        (
            "train(m, a, b, epoch=3)",
            "unexpected keyword argument 'epoch'",
        ),
        ("train(m, a, b, X=1)", "multiple values for argument 'X'"),
    ] {
        fires(&run(&[VARS, DEFS], t, ""), t, "bad-arguments", t, &[fact]);
    }
    silent(&run(
        &[VARS, DEFS],
        "train(m, a, b)\ntrain(m, a, y=b, epochs=3, verbose=True)\nshow(1, 2, 3, size=4)\ntrain(*parts)\ntrain(**kw)",
        "",
    ));
    // Defined in the cell itself, before the call.
    let t = "def f(a):\n    return a\nf(1, 2)";
    fires(
        &run(&[], t, ""),
        t,
        "bad-arguments",
        "f(1, 2)",
        &["takes 1"],
    );
    // Rebound, decorated, or replaced by the kernel: the def no longer tells.
    silent(&run(
        &[VARS, DEFS, "train = make_trainer()"],
        "train(m)",
        "",
    ));
    silent(&run(&[VARS, DEFS], "train = lambda m: m\ntrain(m)", ""));
    silent(&run(
        &[
            VARS,
            "import functools",
            "@functools.lru_cache\ndef g(a):\n    return a",
        ],
        "g(1, 2, 3)",
        "",
    ));
    let not_a_function = r#""train": {"type": "functools.partial", "kind": "object"}"#;
    silent(&run(&[VARS, DEFS], "train(m)", not_a_function));
    silent(&run(&[VARS, DEFS], "exec('train = print')\ntrain(m)", ""));
}

/// The kernel's `pandas` module, of release `version`.
fn pandas_module(version: &str) -> String {
    module_summary("pandas", "pandas", version)
}

#[test]
fn library_signatures_depend_on_the_kernels_release() {
    let history = [
        IMPORTS,
        "import pandas
df = pd.DataFrame({'a': [1, 2]})",
    ];
    // A keyword earlier releases had: silent unless the kernel runs the release of the table.
    let t = "data = pd.read_csv('f.csv', error_bad_lines=False)";
    silent(&run(&history, t, ""));
    silent(&run(&history, t, &pandas_module("1.5.3")));
    fires(
        &run(&history, t, &pandas_module("3.1.0")),
        t,
        "bad-arguments",
        "error_bad_lines=False",
        &[
            "unexpected keyword argument 'error_bad_lines'",
            "a parameter of earlier pandas releases",
            "the kernel runs pandas 3.1.0",
        ],
    );
    // Positional arguments pandas 2 made keyword-only: silent under another release.
    let t = "top = df.sort_values('a', False)";
    silent(&run(&history, t, &pandas_module("1.5.3")));
    let d = run(&history, t, "");
    fires(
        &d,
        t,
        "bad-arguments",
        "df.sort_values('a', False)",
        &["likely"],
    );
    // A misspelling no release had: certain under any release.
    let t = "df.drop('a', axis=1, inplce=True)";
    fires(
        &run(&history, t, &pandas_module("1.5.3")),
        t,
        "bad-arguments",
        "inplce=True",
        &["did you mean 'inplace'?"],
    );
    // A keyword of the DataFrame method given to the Series one is the frames rule's.
    let d = run(&history, "s = df['a'].sort_values(by='a')", "");
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(d[0].message.contains("(that is the DataFrame method's)"));
}

#[test]
fn numpy_constructors_take_fixed_keywords() {
    let t = "docs = np.array([1, 2], maxlen=3)";
    fires(
        &run(&[IMPORTS], t, ""),
        t,
        "bad-arguments",
        "maxlen=3",
        &["unexpected keyword argument 'maxlen'"],
    );
    silent(&run(
        &[IMPORTS],
        "a = np.array([1, 2], dtype=float, copy=True, ndmin=2)\nb = np.zeros((2, 2), dtype=int, order='F')\nc = np.asarray(a, float)",
        "",
    ));
}

#[test]
fn comprehension_elements_run_when_the_iterable_is_not_empty() {
    let t = "docs = np.array([np.array(x, maxlen=3) for x in items])";
    fires(
        &run(&[IMPORTS], t, ARR),
        t,
        "bad-arguments",
        "maxlen=3",
        &["maxlen"],
    );
    let t = "cols = [df['Fare'] for i in range(3)]";
    fires(
        &run(&[IMPORTS], t, TITANIC),
        t,
        "missing-column",
        "'Fare'",
        &[],
    );
    // It may be empty, or filtered: nothing is certain.
    silent(&run(
        &[IMPORTS],
        "docs = [np.array(x, maxlen=3) for x in stuff]",
        r#""stuff": {"type": "list", "kind": "list", "S": {"length": 0}}"#,
    ));
    silent(&run(
        &[IMPORTS],
        "cols = [df['Fare'] for i in range(3) if i > 5]",
        TITANIC,
    ));
    // The loop variable hides the kernel's value of the same name.
    silent(&run(
        &[IMPORTS],
        "vals = [a.reshape(7, 7) for a in items]",
        ARR,
    ));
}

const STR_COLUMNS: &str = r#""df": {"type": "pandas.core.frame.DataFrame", "kind": "dataframe",
    "S": {"shape": [100, 3]},
    "R": {"columns": ["Gender", "Region", "Age"], "columns_complete": true},
    "V": {"has_nan": false, "column_values": {"Gender": {"kind": "binary", "examples": ["0", "1"]},
          "Region": {"kind": "categorical", "examples": ["8.0", "28.0"]},
          "Age": {"kind": "continuous"}}}},
    "cats": {"type": "list", "kind": "list", "S": {"length": 2}}"#;

#[test]
fn a_list_of_column_names_from_an_earlier_cell_drives_a_loop() {
    let hist = [IMPORTS, "cats = ['Gender', 'Region']"];
    let t = "for c in cats:\n    df[c] = df[c].astype('int')";
    fires(
        &run(&hist, t, STR_COLUMNS),
        t,
        "value-conversion",
        "df[c].astype('int')",
        &["'8.0'"],
    );
    // Fixed: the float strings are converted to float first.
    silent(&run(
        &hist,
        "for c in cats:\n    df[c] = df[c].astype(float).astype('int')",
        STR_COLUMNS,
    ));
    // The list may have changed since: an append, or a kernel length that disagrees.
    let changed = [
        IMPORTS,
        "cats = ['Gender', 'Region']",
        "cats.remove('Region')",
    ];
    silent(&run(&changed, t, STR_COLUMNS));
    let longer = STR_COLUMNS.replace(r#""length": 2"#, r#""length": 3"#);
    silent(&run(&hist, t, &longer));
    // A function of the notebook mentions it (a call may have changed it).
    let f = [
        IMPORTS,
        "cats = ['Gender', 'Region']",
        "def f():\n    cats.pop()",
    ];
    silent(&run(&f, t, STR_COLUMNS));
}

// ---------- dropped-again

#[test]
fn dropping_labels_an_earlier_drop_removed() {
    let hist = [
        IMPORTS,
        "df = pd.read_csv('t.csv')",
        "df.drop([10472], inplace=True)",
    ];
    let t = "df.drop([10472],inplace = True);";
    fires(
        &run(&hist, t, TITANIC),
        t,
        "dropped-again",
        "df.drop([10472],inplace = True)",
        &["10472", "KeyError", "errors='ignore'"],
    );
    let t = "df = df.drop(columns=['Age'])";
    let cols = [IMPORTS, "df.drop('Age', axis=1, inplace=True)"];
    let no_age = TITANIC
        .replace(r#", "Age", "Sex"]"#, r#", "Sex"]"#)
        .replace("[891, 4]", "[891, 3]");
    fires(
        &run(&cols, t, &no_age),
        t,
        "dropped-again",
        "df.drop(columns=['Age'])",
        &["'Age'"],
    );
    // The kernel still lists the column: something gave it back.
    silent(&run(&cols, t, TITANIC));
    // The same cell run twice: the second drop finds nothing.
    let twice = "df.drop(index=[3], inplace=True)\ndf.drop([3], inplace=True)";
    fires(
        &run(&[IMPORTS], twice, TITANIC),
        twice,
        "dropped-again",
        "df.drop([3], inplace=True)",
        &["3"],
    );
    // Fixed: the frame is read again, errors='ignore', another axis or label, a drop that did
    // not change the frame, or something that may have given the label back.
    let reread = [
        IMPORTS,
        "df.drop([10472], inplace=True)",
        "df = pd.read_csv('t.csv')",
    ];
    silent(&run(&reread, "df.drop([10472], inplace=True)", TITANIC));
    silent(&run(
        &hist,
        "df.drop([10472], errors='ignore', inplace=True)",
        TITANIC,
    ));
    silent(&run(&hist, "df.drop([10473], inplace=True)", TITANIC));
    silent(&run(&hist, "df.drop(columns=[10472])", TITANIC));
    silent(&run(
        &[IMPORTS, "df.drop([7])"],
        "df.drop([7], inplace=True)",
        TITANIC,
    ));
    let back = [
        IMPORTS,
        "df.drop([7], inplace=True)",
        "df.loc[7] = [1, 0, 22.0, 'male']",
    ];
    silent(&run(&back, "df.drop([7], inplace=True)", TITANIC));
    let alias = [IMPORTS, "df.drop([7], inplace=True)", "d = df"];
    silent(&run(&alias, "df.drop([7], inplace=True)", TITANIC));
    let func = [
        IMPORTS,
        "def add():\n    df.loc[7] = 1",
        "df.drop([7], inplace=True)",
        "add()",
    ];
    silent(&run(&func, "df.drop([7], inplace=True)", TITANIC));
    let here = "def add():\n    df.loc[10472] = 1\n\nadd()\ndf.drop([10472], inplace=True)";
    silent(&run(&hist, here, TITANIC));
    // Defined but not called: the label is still gone.
    let t = "def add():\n    df.loc[10472] = 1\n\ndf.drop([10472], inplace=True)";
    fires(
        &run(&hist, t, TITANIC),
        t,
        "dropped-again",
        "df.drop([10472], inplace=True)",
        &["10472"],
    );
}

// ---------- histogram-nan

#[test]
fn histogram_of_data_with_nan_needs_a_range() {
    for t in [
        "freq, edges = np.histogram(df['Age'].values)",
        "np.histogram(df['Age'], bins=20)",
        "np.histogram(df.Age.to_numpy(), 'auto', density=True)",
    ] {
        let call = &t[t.find("np.").unwrap()..];
        fires(
            &run(&[IMPORTS], t, TITANIC),
            t,
            "histogram-nan",
            call,
            &["NaN", "range="],
        );
    }
    // A loop over known column names checks every one of them.
    let t = "for col in ['Survived', 'Age']:\n    freq, edges = np.histogram(df[col].values)";
    fires(
        &run(&[IMPORTS], t, TITANIC),
        t,
        "histogram-nan",
        "np.histogram(df[col].values)",
        &["NaN"],
    );
    // Fixed: NaN dropped, a range or the bin edges given, or no NaN known; seaborn drops NaN.
    for t in [
        "np.histogram(df['Age'].dropna().values)",
        "np.histogram(df['Age'].values, range=(0, 80))",
        "np.histogram(df['Age'].values, bins=[0, 40, 80])",
        "np.histogram(df['Age'].values, bins=edges)",
        "np.histogram(df['PassengerId'].values)",
        "sns.histplot(df['Age'])",
    ] {
        silent(&run(&[IMPORTS, "edges = [0, 1]"], t, TITANIC));
    }
}

#[test]
fn strings_made_from_nan_do_not_convert_to_int() {
    for (t, call, bad) in [
        (
            "df['year'] = df['Age'].apply(lambda x: str(x).split('.')[0]).astype('int')",
            "df['Age'].apply(lambda x: str(x).split('.')[0]).astype('int')",
            "'nan'",
        ),
        (
            "y = df.Age.map(str).astype(int)",
            "df.Age.map(str).astype(int)",
            "'nan'",
        ),
        (
            "y = df.Age.apply(lambda v: str(v).upper()[:2]).astype(np.int64)",
            "df.Age.apply(lambda v: str(v).upper()[:2]).astype(np.int64)",
            "'NA'",
        ),
    ] {
        fires(
            &run(&[IMPORTS], t, TITANIC),
            t,
            "value-conversion",
            call,
            &[bad],
        );
    }
    // Fixed: NaN filled first, a float target ('nan' is a float), a replacement the rules do not
    // follow, a nullable integer, or NaN not known in the column.
    for t in [
        "df['Age'].fillna(0).apply(lambda x: str(x).split('.')[0]).astype('int')",
        "df['Age'].apply(lambda x: str(x).split('.')[0]).astype(float)",
        "df['Age'].apply(lambda x: str(x).replace('nan', '0')).astype(int)",
        "df['Age'].apply(lambda x: str(x)[:2], convert_dtype=False)",
        "df['Age'].astype('Int64')",
        "df['PassengerId'].apply(str).astype(int)",
    ] {
        silent(&run(&[IMPORTS], t, TITANIC));
    }
}

// ---------- calls into the notebook's functions

const MATRICES: &str = r#""X": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [75, 4]}},
    "w": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [1, 4]}},
    "w_col": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [4, 1]}}"#;

#[test]
fn a_crash_inside_a_function_of_an_earlier_cell_is_reported_at_the_call() {
    let predict = "def predict(X, w):\n    z = np.dot(X, w)\n    return z";
    let t = "p = predict(X, w)\nprint(p)";
    fires(
        &run(&[IMPORTS, predict], t, MATRICES),
        t,
        "shape-matmul",
        "predict(X, w)",
        &["in `predict`, line 2", "(75, 4)", "(1, 4)", "ValueError"],
    );
    // Keywords bind by name; two calls deep, each function and line is named.
    let train =
        "def train(X, w, epochs=10):\n    for i in range(epochs):\n        z = predict(X, w)";
    let t = "train(X, w=w, epochs=5)";
    fires(
        &run(&[IMPORTS, predict, train], t, MATRICES),
        t,
        "shape-matmul",
        t,
        &["in `train`, line 3: in `predict`, line 2"],
    );
    // A literal default is what the parameter holds: the loop runs.
    let t = "train(X, w)";
    fires(
        &run(&[IMPORTS, predict, train], t, MATRICES),
        t,
        "shape-matmul",
        t,
        &["in `train`, line 3: in `predict`, line 2"],
    );
    // Fixed: shapes that fit; a loop that does not run.
    silent(&run(&[IMPORTS, predict], "p = predict(X, w_col)", MATRICES));
    silent(&run(
        &[IMPORTS, predict, train],
        "train(X, w, epochs=0)",
        MATRICES,
    ));
    // The kernel's state at the call, not at the definition: the cell rebinds w first.
    silent(&run(
        &[IMPORTS, predict],
        "w = np.zeros((4, 1))\np = predict(X, w)",
        MATRICES,
    ));
    // A function of the target cell itself.
    let t = "def f(a):\n    return np.dot(a, w)\nf(X)";
    fires(
        &run(&[IMPORTS], t, MATRICES),
        t,
        "shape-matmul",
        "f(X)",
        &["in `f`, line 2"],
    );
}

#[test]
fn returned_values_flow_back_to_the_caller() {
    let init = "def init(n):\n    w = np.zeros((1, n))\n    b = 0\n    return w, b";
    let t = "w, b = init(X.shape[1])\nz = np.dot(X, w) + b";
    fires(
        &run(&[IMPORTS, init], t, MATRICES),
        t,
        "shape-matmul",
        "np.dot(X, w)",
        &["(1, 4)"],
    );
    let fixed = "def init(n):\n    w = np.zeros((n, 1))\n    b = 0\n    return w, b";
    silent(&run(&[IMPORTS, fixed], t, MATRICES));
    // A return under a condition: what comes back is not known.
    let maybe = "def init(n):\n    if n > 3:\n        return np.zeros((n, 1)), 0\n    return np.zeros((1, n)), 0";
    silent(&run(&[IMPORTS, maybe], t, MATRICES));
}

#[test]
fn only_what_certainly_runs_in_the_function_is_checked() {
    let t = "f(X, w)";
    for body in [
        // An early return or raise, possibly taken (an array is never None: `if X is None:`
        // is not taken, see none_tests.json).
        "def f(X, w):\n    if X.sum() > 0:\n        return None\n    return np.dot(X, w)",
        "def f(X, w):\n    raise NotImplementedError\n    np.dot(X, w)",
        "def f(X, w):\n    assert X.shape[1] == w.shape[0]\n    np.dot(X, w)",
        // Caught inside.
        "def f(X, w):\n    try:\n        return np.dot(X, w)\n    except ValueError:\n        return None",
        // A loop that may not run.
        "def f(X, w, n=0):\n    for i in range(n):\n        np.dot(X, w)",
        // Calling a generator or a coroutine function runs nothing yet.
        "def f(X, w):\n    yield np.dot(X, w)",
        "async def f(X, w):\n    return np.dot(X, w)",
        // Recursion is not followed.
        "def f(X, w):\n    return f(w, X)",
    ] {
        silent(&run(&[IMPORTS, body], t, MATRICES));
    }
    // What the function does to its parameters first counts; a keyword meant for `**kwargs`
    // binds no parameter.
    silent(&run(
        &[
            IMPORTS,
            "def f(X, w):\n    w = w.T\n    return np.dot(X, w)",
        ],
        t,
        MATRICES,
    ));
    silent(&run(
        &[IMPORTS, "def f(X, **w):\n    return np.dot(X, w)"],
        "f(X, w=w)",
        MATRICES,
    ));
    let t2 = "f(X, w_col)";
    fires(
        &run(
            &[
                IMPORTS,
                "def f(X, w):\n    w = w.T\n    return np.dot(X, w)",
            ],
            t2,
            MATRICES,
        ),
        t2,
        "shape-matmul",
        t2,
        &["line 3", "(1, 4)"],
    );
    // Rebound since it was defined.
    silent(&run(
        &[IMPORTS, "def f(X, w):\n    np.dot(X, w)", "f = print"],
        t,
        MATRICES,
    ));
    // A loop that certainly runs.
    let body = "def f(X, w, n=0):\n    for i in range(n):\n        np.dot(X, w)";
    let t = "f(X, w, 2)";
    fires(
        &run(&[IMPORTS, body], t, MATRICES),
        t,
        "shape-matmul",
        t,
        &["line 3"],
    );
}

#[test]
fn calls_are_followed_three_deep() {
    let chain = "def f1(a):\n    f2(a)\ndef f2(a):\n    f3(a)\ndef f3(a):\n    np.dot(a, w)\ndef f0(a):\n    f1(a)";
    let t = "f1(X)";
    fires(
        &run(&[IMPORTS, chain], t, MATRICES),
        t,
        "shape-matmul",
        t,
        &["in `f1`, line 2: in `f2`, line 4: in `f3`, line 6"],
    );
    silent(&run(&[IMPORTS, chain], "f0(X)", MATRICES));
}

// ---------- join-overlap

const JOINED: &str = r#""counts": {"type": "pandas.core.series.Series", "kind": "series", "S": {"shape": [2]}},
    "fares": {"type": "pandas.core.frame.DataFrame", "kind": "dataframe",
    "S": {"shape": [3, 2]}, "R": {"columns": ["Age", "Fare"]}},
    "codes": {"type": "pandas.core.frame.DataFrame", "kind": "dataframe",
    "S": {"shape": [3, 1]}, "R": {"columns": ["0"]}},
    "numbered": {"type": "pandas.core.frame.DataFrame", "kind": "dataframe",
    "S": {"shape": [3, 2]}, "R": {"columns": ["0", "1"]}}"#;

fn objects(more: &str) -> String {
    format!("{TITANIC}, {JOINED}{more}")
}

#[test]
fn join_of_columns_the_frame_already_has() {
    let t = "df.join(fares)";
    fires(
        &run(&[IMPORTS], t, &objects("")),
        t,
        "join-overlap",
        "fares",
        &[
            "'Age'",
            "columns overlap but no suffix specified",
            "ValueError",
        ],
    );
    for t in [
        "df.join(fares, lsuffix='_l')",
        "df.join(fares, rsuffix='_r', how='inner')",
        "df.join(fares[['Fare']])",
        "opts = {}\ndf.join(fares, **opts)",
        // The kernel writes labels as text: 0 and '0' would look alike.
        "numbered.join(codes)",
    ] {
        silent(&run(&[IMPORTS], t, &objects("")));
    }
}

#[test]
fn a_series_joined_twice_in_a_function() {
    let counts = "counts = df['Sex'].value_counts().rename('n_sex')";
    let add = "def add_counts(data, counts):\n    data = data.join(counts, on='Sex')\n    data['flag'] = 1\n    data = data.join(counts, on='Sex')\n    return data";
    let t = "df2 = add_counts(df, counts)";
    fires(
        &run(&[IMPORTS, counts, add], t, &objects("")),
        t,
        "join-overlap",
        "add_counts(df, counts)",
        &["in `add_counts`, line 4", "'n_sex'"],
    );
    // Fixed: a suffix, or the counts mapped into one column.
    let suffixed = add.replace(
        "on='Sex')\n    return",
        "on='Sex', rsuffix='_2')\n    return",
    );
    silent(&run(&[IMPORTS, counts, &suffixed], t, &objects("")));
    let mapped = "def add_counts(data, counts):\n    data['n_sex'] = data['Sex'].map(counts)\n    data['flag'] = 1\n    return data";
    silent(&run(&[IMPORTS, counts, mapped], t, &objects("")));
    // The Series was renamed since, or its name is not known.
    silent(&run(
        &[IMPORTS, counts, "counts.name = 'other'", add],
        t,
        &objects(""),
    ));
    silent(&run(
        &[IMPORTS, "counts = df['Sex'].value_counts()", add],
        t,
        &objects(""),
    ));
}

#[test]
fn a_parameter_does_not_make_a_function_mention_the_global_of_that_name() {
    let cols = r#""cols": {"type": "list", "kind": "list", "S": {"length": 2}}"#;
    let objs = format!("{TWO_FRAMES}, {cols}");
    let t = "for c in cols:\n    df[c]";
    fires(
        &run(
            &[
                IMPORTS,
                "cols = ['Time', 'Hour']",
                "def show(cols):\n    print(cols)",
            ],
            t,
            &objs,
        ),
        t,
        "missing-column",
        "c",
        &["'Hour'"],
    );
    // A function that may change the global list.
    silent(&run(
        &[
            IMPORTS,
            "cols = ['Time', 'Hour']",
            "def show():\n    cols.append('x')",
        ],
        t,
        &objs,
    ));
    silent(&run(
        &[
            IMPORTS,
            "cols = ['Time', 'Hour']",
            "def show(c):\n    global cols\n    cols = c",
        ],
        t,
        &objs,
    ));
}

#[test]
fn the_walk_into_functions_is_bounded() {
    let items: Vec<String> = (0..60).map(|i| format!("'c{i}'")).collect();
    let items = items.join(", ");
    let chain = format!(
        "def h(a):\n    for c in [{items}]:\n        np.dot(a, w_col)\ndef g(a):\n    for c in [{items}]:\n        h(a)\ndef f(a):\n    for c in [{items}]:\n        g(a)"
    );
    // 60 × 60 × 60 passes if nothing bounded them: the shared budget ends the walk.
    silent(&run(&[IMPORTS, &chain], "f(X)\nf(X)", MATRICES));
}

// ---------- loops over known elements, lists grown by append, stacking arrays

const FOREST: &str = r#""big": {"type": "sklearn.ensemble._gb.GradientBoostingRegressor", "kind": "estimator", "S": {"n_features_in": 109}, "V": {"fitted": true}},
    "small": {"type": "sklearn.ensemble._gb.GradientBoostingRegressor", "kind": "estimator", "S": {"n_features_in": 8}, "V": {"fitted": true}},
    "big_rf": {"type": "sklearn.ensemble._forest.RandomForestRegressor", "kind": "estimator", "S": {"n_features_in": 109}, "V": {"fitted": true}},
    "small_rf": {"type": "sklearn.ensemble._forest.RandomForestRegressor", "kind": "estimator", "S": {"n_features_in": 8}, "V": {"fitted": true}},
    "lin": {"type": "sklearn.linear_model._base.LinearRegression", "kind": "estimator", "S": {"n_features_in": 8}, "V": {"fitted": true}},
    "X8": {"type": "pandas.core.frame.DataFrame", "kind": "dataframe", "S": {"shape": [20, 8]}},
    "y": {"type": "pandas.core.series.Series", "kind": "series", "S": {"shape": [20]}}"#;

#[test]
fn loops_over_known_elements_run_for_each_of_them() {
    // Every pass of a loop over a list of names is followed, and so is an element of a list.
    let t = "for m in [small, big]:\n    m.predict(X8)";
    fires(
        &run(&[SK], t, FOREST),
        t,
        "sklearn-feature-mismatch",
        "X8",
        &["109 features", "X8 has 8"],
    );
    let t = "models = {'a': [small_rf], 'b': [small, big]}\nmodels['b'][1].predict(X8)";
    fires(
        &run(&[SK], t, FOREST),
        t,
        "sklearn-feature-mismatch",
        "X8",
        &["109 features"],
    );
    silent(&run(
        &[SK],
        "for m in [small, small_rf]:\n    m.predict(X8)\nmodels = {'a': [small_rf], 'b': [small, big]}\nmodels['b'][0].predict(X8)",
        FOREST,
    ));
    // Refitted through the loop's variable, through the list, or by a function: forgotten.
    for t in [
        "for m in [small, big]:\n    m.fit(X8, y)\n    m.predict(X8)\nbig.predict(X8)",
        "models = [big]\nmodels[0].fit(X8, y)\nmodels[0].predict(X8)\nbig.predict(X8)",
        "def refit(ms):\n    for m in ms:\n        m.fit(X8, y)\nmodels = [big]\nrefit(models)\nmodels[0].predict(X8)\nbig.predict(X8)",
    ] {
        silent(&run(&[SK], t, FOREST));
    }
    // A list grown by append in such a loop has one element per pass.
    let t = "seen = []\nfor m in (small, big):\n    seen.append(m)\nseen[2]";
    fires(
        &run(&[SK], t, FOREST),
        t,
        "index-out-of-range",
        "seen[2]",
        &["length 2"],
    );
    for t in [
        "seen = []\nfor m in (small, big):\n    seen.append(m)\nseen[1]",
        // An append that may not run, or another change of the list: its length is not known.
        "seen = []\nfor m in (small, big):\n    if m is big:\n        seen.append(m)\nseen[0]",
        "seen = []\nfor m in (small, big):\n    seen.append(m)\n    seen.extend([m])\nseen[3]",
        "seen = []\nalias = seen\nfor m in (small, big):\n    alias.append(m)\n    seen.append(m)\nseen[3]",
        "seen = []\nfor m in (small, big):\n    seen += [m, m]\nseen[3]",
    ] {
        silent(&run(&[SK], t, FOREST));
    }
}

#[test]
fn importances_of_models_fitted_on_other_features_do_not_stack() {
    // Groups of models per feature set, importances collected per group.
    let t = "groups = {'wide': [big, small, big_rf], 'narrow': [small_rf]}\nfor key in groups:\n    imps = []\n    for model in groups[key]:\n        fi = model.feature_importances_\n        imps.append(fi)\n    table = pd.DataFrame(np.array(imps))";
    fires(
        &run(&[IMPORTS], t, FOREST),
        t,
        "shape-stack",
        "np.array(imps)",
        &[
            "np.array(imps) needs arrays of one shape",
            "feature_importances_ of big (fitted on 109 features)",
            "(109,)",
            "feature_importances_ of small (fitted on 8 features)",
            "(8,)",
            "ValueError",
        ],
    );
    // Fixed: each group fitted on one feature set.
    silent(&run(
        &[IMPORTS],
        "groups = {'wide': [big, big_rf], 'narrow': [small, small_rf]}\nfor key in groups:\n    imps = []\n    for model in groups[key]:\n        fi = model.feature_importances_\n        imps.append(fi)\n    table = pd.DataFrame(np.array(imps))",
        FOREST,
    ));
    // A tuple of names, `d.values()`, and the stacking functions that need one shape.
    for (t, call) in [
        (
            "imps = []\nfor m in (big_rf, small_rf):\n    imps.append(m.feature_importances_)\nnp.stack(imps)",
            "np.stack(imps)",
        ),
        (
            "d = {'a': big, 'b': small}\nimps = []\nfor m in d.values():\n    imps.append(m.feature_importances_)\nnp.vstack(imps)",
            "np.vstack(imps)",
        ),
        (
            "np.asarray([big.feature_importances_, small.feature_importances_])",
            "np.asarray([big.feature_importances_, small.feature_importances_])",
        ),
        (
            "np.column_stack([big.feature_importances_, small_rf.feature_importances_])",
            "np.column_stack([big.feature_importances_, small_rf.feature_importances_])",
        ),
    ] {
        fires(&run(&[IMPORTS], t, FOREST), t, "shape-stack", call, &["(109,)", "(8,)"]);
    }
    // Joining 1-D arrays end to end, an object array of the arrays, one shape.
    for t in [
        "np.hstack([big.feature_importances_, small.feature_importances_])",
        "np.concatenate([big.feature_importances_, small.feature_importances_])",
        "np.array([big.feature_importances_, small.feature_importances_], dtype=object)",
        "np.array([big.feature_importances_, big_rf.feature_importances_])",
        "pd.DataFrame([big.feature_importances_, small.feature_importances_])",
    ] {
        silent(&run(&[IMPORTS], t, FOREST));
    }
}

#[test]
fn stacking_follows_numpy_shapes() {
    let arrs = r#""r": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [3, 4]}, "R": {"dtype": "float64"}},
        "s": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [5, 4]}, "R": {"dtype": "float64"}},
        "v": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [4]}, "R": {"dtype": "float64"}},
        "w": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [5]}, "R": {"dtype": "float64"}},
        "o": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [3]}, "R": {"dtype": "object"}}"#;
    let t = "np.stack([r, s])";
    fires(
        &run(&[IMPORTS], t, arrs),
        t,
        "shape-stack",
        t,
        &["r has shape (3, 4)", "s has shape (5, 4)"],
    );
    let t = "np.vstack([r, w])";
    fires(
        &run(&[IMPORTS], t, arrs),
        t,
        "shape-stack",
        t,
        &["(5,)", "rows"],
    );
    // Rows of one length stack whatever their number; a 1-D array is one row.
    silent(&run(
        &[IMPORTS],
        "np.vstack([r, s])\nnp.vstack([r, v])\nnp.vstack((v, v))",
        arrs,
    ));
    // Other shapes with a dtype, or of object arrays, are not claimed.
    silent(&run(
        &[IMPORTS],
        "np.array([v, w], float)\nnp.array([o, v])",
        arrs,
    ));
}

#[test]
fn a_list_grown_by_append_is_followed_only_while_certain() {
    let grow = |body: &str| format!("imps = []\nfor m in [big, small]:\n{body}\nnp.array(imps)");
    fires(
        &run(
            &[IMPORTS],
            &grow("    imps.append(m.feature_importances_)"),
            FOREST,
        ),
        &grow("    imps.append(m.feature_importances_)"),
        "shape-stack",
        "np.array(imps)",
        &["feature_importances_ of big", "(109,)"],
    );
    for body in [
        // An append that may not run, a loop that may stop early, another change of the list.
        "    if m is big:\n        imps.append(m.feature_importances_)",
        "    imps.append(m.feature_importances_)\n    if len(imps) > 0:\n        break",
        "    imps.append(m.feature_importances_)\n    imps.pop()",
        "    imps.append(m.feature_importances_)\n    imps = imps[-1:]",
        // The models are refitted on one feature set first.
        "    m.fit(X8, y)\n    imps.append(m.feature_importances_)",
    ] {
        silent(&run(&[IMPORTS], &grow(body), FOREST));
    }
    // Another name for the same list empties it.
    silent(&run(
        &[IMPORTS],
        "imps = [big.feature_importances_]\nsame = imps\nsame.clear()\nimps.append(small.feature_importances_)\nimps.append(small_rf.feature_importances_)\nnp.array(imps)",
        FOREST,
    ));
    // Models refitted through the loop's variable, or through the list.
    silent(&run(
        &[IMPORTS],
        "for m in [big, small]:\n    m.fit(X8, y)\nnp.array([big.feature_importances_, small.feature_importances_])",
        FOREST,
    ));
    silent(&run(
        &[IMPORTS],
        "models = [big, small]\nmodels[0].fit(X8, y)\nnp.array([models[0].feature_importances_, small.feature_importances_])",
        FOREST,
    ));
    // A linear model's coef_ is (8,) or (1, 8) as y was 1-D or 2-D: its shape is not followed.
    silent(&run(
        &[IMPORTS],
        "np.array([lin.coef_, small.feature_importances_])",
        FOREST,
    ));
}

#[test]
fn numpy_before_1_24_made_ragged_object_arrays() {
    let objs = format!(
        r#"{FOREST}, "np": {{"type": "module", "kind": "module", "R": {{"module": "numpy", "version": "1.21.6"}}}}"#
    );
    silent(&run(
        &[IMPORTS],
        "np.array([big.feature_importances_, small.feature_importances_])",
        &objs,
    ));
    let t = "np.stack([big.feature_importances_, small.feature_importances_])";
    fires(&run(&[IMPORTS], t, &objs), t, "shape-stack", t, &["(109,)"]);
}

#[test]
fn the_globals_of_called_functions_are_asked_of_the_kernel() {
    let history: Vec<String> = [
        IMPORTS,
        "def predict(a):\n    return sigmoid(np.dot(a, w))",
        "def sigmoid(z):\n    return 1 / (1 + np.exp(-z * scale))",
        "def unused():\n    return other",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let report = check_cell(&CheckInput {
        cells: &history,
        target_source: "p = predict(X)",
        target_index: None,
        history: &history,
        history_raised: &[],
        kernel_names: None,
        summaries: None,
        severities: &Severities::new(),
    });
    // Through predict and the sigmoid it calls; not their parameters, modules or functions,
    // nor what a function the cell does not call reads.
    assert_eq!(report.callee_globals, ["scale", "w"]);
}

#[test]
fn a_called_function_reading_a_name_nothing_defines_raises_name_error() {
    let make = "def make():\n    n = 3\n    return helper(n)";
    let t = "m = make()";
    fires(
        &run(&[IMPORTS, make], t, &objects("")),
        t,
        "undefined-name",
        "make()",
        &["in `make`, line 3", "`helper` is not defined", "NameError"],
    );
    // Defined by an executed cell, by the cell before the call, or read only on some paths.
    let helper = "def helper(n):\n    return n";
    silent(&run(&[IMPORTS, make, helper], t, &objects("")));
    silent(&run(
        &[IMPORTS, make],
        &format!("{helper}\n{t}"),
        &objects(""),
    ));
    for body in [
        "def make(flag):\n    if flag:\n        return helper(1)\n    return 0",
        "def make(flag):\n    return flag and helper(1)",
        "def make(flag):\n    return lambda: helper(1)",
        "def make(flag):\n    return [helper(x) for x in flag]",
        "def make(flag):\n    try:\n        return helper(1)\n    except NameError:\n        return 0",
        "def make(flag):\n    global helper\n    helper = len\n    return helper(flag)",
    ] {
        silent(&run(&[IMPORTS, body], "m = make([])", &objects("")));
    }
}

// ---------- classification on continuous targets

const SK_TARGETS: &str = "from sklearn.linear_model import LogisticRegression, LinearRegression\nfrom sklearn.ensemble import RandomForestClassifier, RandomForestRegressor\nfrom sklearn.neighbors import KNeighborsClassifier\nfrom sklearn.dummy import DummyClassifier\nfrom sklearn.model_selection import train_test_split\nfrom sklearn.metrics import accuracy_score, f1_score, confusion_matrix, r2_score, mean_squared_error, roc_auc_score\nimport numpy as np";

const TARGETS: &str = r#""X_train": {"type": "pandas.core.frame.DataFrame", "kind": "dataframe", "S": {"shape": [100, 3]}, "V": {"has_nan": false}},
    "y_price": {"type": "pandas.core.series.Series", "kind": "series", "S": {"shape": [100]}, "R": {"dtype": "float64", "name": "price"}, "V": {"has_nan": false, "kind": "continuous", "range": [0.42, 80.0]}},
    "y_paper": {"type": "pandas.core.series.Series", "kind": "series", "V": {"kind": "continuous", "range": [3, 17.5]}},
    "y_flag": {"type": "pandas.core.series.Series", "kind": "series", "S": {"shape": [100]}, "R": {"dtype": "float64"}, "V": {"has_nan": false, "kind": "binary", "unique": 2, "range": [0.0, 1.0]}},
    "y_obj": {"type": "pandas.core.series.Series", "kind": "series", "S": {"shape": [100]}, "R": {"dtype": "object"}, "V": {"kind": "categorical", "examples": [0.5, "a"], "range": [0.5, 2.5]}},
    "p": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [100]}, "R": {"dtype": "float64"}, "V": {"has_nan": false, "range": [0.013, 0.98]}},
    "p_undtyped": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [100]}, "V": {"range": [0.013, 0.98]}},
    "t": {"type": "torch.Tensor", "kind": "tensor", "S": {"shape": [100]}, "R": {"dtype": "torch.float32"}, "V": {"range": [0.013, 0.98]}},
    "labels": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [100]}, "R": {"dtype": "int64"}, "V": {"range": [0, 1], "unique": 2, "unique_values": [0, 1]}},
    "scores": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [100]}, "R": {"dtype": "float32"}, "V": {"has_nan": false, "unique": 3, "unique_values": [0.0, 0.5, 1.0]}},
    "houses": {"type": "pandas.core.frame.DataFrame", "kind": "dataframe", "S": {"shape": [100, 3]},
        "R": {"columns": ["area", "price", "rooms"], "dtypes": {"area": "int64", "price": "float64", "rooms": "float64"}},
        "V": {"has_nan": false, "column_values": {"price": {"kind": "continuous", "range": [1.5, 99.9]},
              "rooms": {"kind": "categorical", "unique": 6, "range": [1.0, 6.0]}, "area": {"kind": "continuous", "range": [20, 300]}}}},
    "clf": {"type": "sklearn.linear_model._logistic.LogisticRegression", "kind": "estimator", "S": {"n_features_in": 3}, "V": {"fitted": true}},
    "reg": {"type": "sklearn.ensemble._forest.RandomForestRegressor", "kind": "estimator", "S": {"n_features_in": 3}, "V": {"fitted": true}},
    "forest": {"type": "sklearn.ensemble._forest.RandomForestClassifier", "kind": "estimator", "S": {"n_features_in": 3, "n_classes": 2}, "V": {"fitted": true}},
    "forest1": {"type": "sklearn.ensemble._forest.RandomForestClassifier", "kind": "estimator", "S": {"n_features_in": 3, "n_classes": 1}, "V": {"fitted": true}},
    "svc": {"type": "sklearn.svm._classes.SVC", "kind": "estimator", "S": {"n_features_in": 3, "n_classes": 2}, "V": {"fitted": true}},
    "onehot": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [100, 2]}, "R": {"dtype": "int64"}, "V": {"range": [0, 1]}},
    "vote": {"type": "sklearn.ensemble._voting.VotingClassifier", "kind": "estimator", "R": {"steps": [["lr", "sklearn.linear_model._logistic.LogisticRegression"]]}, "V": {"fitted": false}},
    "ada": {"type": "sklearn.ensemble._weight_boosting.AdaBoostClassifier", "kind": "estimator", "R": {"params": {"estimator": "None"}}, "V": {"fitted": false}},
    "ada_reg": {"type": "sklearn.ensemble._weight_boosting.AdaBoostClassifier", "kind": "estimator", "R": {"params": {"estimator": "DecisionTreeRegressor()"}}, "V": {"fitted": false}}"#;

fn targets(target: &str) -> Vec<Diagnostic> {
    run(&[SK_TARGETS], target, TARGETS)
}

#[test]
fn classifier_fitted_on_continuous_targets() {
    let t = "model = LogisticRegression(max_iter=1000)\nmodel.fit(X_train, y_price)";
    fires(
        &targets(t),
        t,
        "sklearn-continuous-target",
        "y_price",
        &[
            "y_price",
            "0.42",
            "LogisticRegression is a classifier",
            "model.fit()",
            "ValueError: Unknown label type",
            "regressor",
        ],
    );
    // A column of a frame, also through a name bound in the cell; keyword `y`.
    let t = "y = houses['price']\nRandomForestClassifier().fit(X_train, y)";
    fires(&targets(t), t, "sklearn-continuous-target", "y", &["1.5"]);
    let t = "KNeighborsClassifier().fit(X=X_train, y=houses.price)";
    fires(
        &targets(t),
        t,
        "sklearn-continuous-target",
        "houses.price",
        &["1.5", "KNeighborsClassifier"],
    );
    // The paper's summaries give no dtype: a range of numbers is only computed for numbers.
    let t = "LogisticRegression().fit(X_train, y_paper)";
    fires(
        &targets(t),
        t,
        "sklearn-continuous-target",
        "y_paper",
        &["17.5", "NaN"],
    );
    // Ensembles check the targets themselves; AdaBoost only with its default trees.
    let t = "vote.fit(X_train, y_price)";
    fires(
        &targets(t),
        t,
        "sklearn-continuous-target",
        "y_price",
        &["VotingClassifier"],
    );
    let t = "ada.fit(X_train, y_price)";
    fires(
        &targets(t),
        t,
        "sklearn-continuous-target",
        "y_price",
        &["AdaBoostClassifier"],
    );
    let t = "from sklearn.ensemble import AdaBoostClassifier\nAdaBoostClassifier(n_estimators=10).fit(X_train, y_price)";
    fires(
        &targets(t),
        t,
        "sklearn-continuous-target",
        "y_price",
        &["AdaBoostClassifier"],
    );
    // Cross-validation: some fold fits on the value (cv a number of folds, or left out).
    let t = "from sklearn.model_selection import cross_val_predict\npred = cross_val_predict(RandomForestClassifier(), X_train, y_price, cv=3)";
    fires(
        &targets(t),
        t,
        "sklearn-continuous-target",
        "y_price",
        &["cross_val_predict fits the classifier RandomForestClassifier"],
    );
    let t = "from sklearn.model_selection import cross_val_score\ncross_val_score(clf, X_train, y=y_price, error_score='raise')";
    fires(
        &targets(t),
        t,
        "sklearn-continuous-target",
        "y_price",
        &["cross_val_score"],
    );
    // Inside a function of the notebook the cell calls.
    let def = "def train(model, X, y):\n    model.fit(X, y)\n    return model";
    let t = "m = train(LogisticRegression(), X_train, y_price)";
    fires(
        &run(&[SK_TARGETS, def], t, TARGETS),
        t,
        "sklearn-continuous-target",
        "train(LogisticRegression(), X_train, y_price)",
        &["in `train`, line 2: y holds non-integer values such as 0.42"],
    );
    let def = "def train(model, X, y):\n    model.fit(X, y.round())\n    return model";
    silent(&run(&[SK_TARGETS, def], t, TARGETS));
    // A fitted classifier scored against continuous targets.
    let t = "clf.score(X_train, y_price)";
    fires(
        &targets(t),
        t,
        "sklearn-continuous-target",
        "y_price",
        &["clf.score()", "accuracy_score"],
    );
}

#[test]
fn classification_metrics_on_continuous_values() {
    let t = "accuracy_score(labels, p)";
    fires(
        &targets(t),
        t,
        "sklearn-continuous-target",
        "p",
        &[
            "p holds non-integer values such as 0.013",
            "accuracy_score is a classification metric",
            "ValueError",
        ],
    );
    let t = "f1_score(y_pred=labels, y_true=y_price)";
    fires(
        &targets(t),
        t,
        "sklearn-continuous-target",
        "y_price",
        &["0.42", "f1_score"],
    );
    let t = "from sklearn import metrics\ncm = metrics.confusion_matrix(scores, labels)";
    fires(
        &targets(t),
        t,
        "sklearn-continuous-target",
        "scores",
        &["0.5"],
    );
}

#[test]
fn classification_metrics_on_probabilities() {
    let t = "accuracy_score(labels, clf.predict_proba(X_train))";
    fires(
        &targets(t),
        t,
        "sklearn-continuous-target",
        "clf.predict_proba(X_train)",
        &[
            "2-D array of probabilities",
            "labels holds one label per sample",
            "accuracy_score raises ValueError",
            "clf.predict(...)",
        ],
    );
    let t = "from sklearn.metrics import classification_report\nprint(classification_report(forest.predict_proba(X_train), y_flag))";
    fires(
        &targets(t),
        t,
        "sklearn-continuous-target",
        "forest.predict_proba(X_train)",
        &["classification_report"],
    );
    // Fitted in the cell: a LogisticRegression has two classes at least.
    let t = "m = LogisticRegression()\nm.fit(X_train, labels)\nf1_score(labels, m.predict_proba(X_train))";
    fires(
        &targets(t),
        t,
        "sklearn-continuous-target",
        "m.predict_proba(X_train)",
        &["f1_score"],
    );
}

#[test]
fn continuous_targets_that_run() {
    // Floats that are all integers are classes; regressors and regression metrics take anything.
    silent(&targets("LogisticRegression().fit(X_train, y_flag)\nRandomForestClassifier().fit(X_train, houses['rooms'])"));
    silent(&targets("LinearRegression().fit(X_train, y_price)\nRandomForestRegressor().fit(X_train, houses['price'])\nreg.score(X_train, y_price)"));
    silent(&targets("DummyClassifier().fit(X_train, y_price)"));
    // Cross-validation scores of the folds that fail are NaN unless error_score='raise' (one fold
    // that fits gives no error); splitter objects are not followed.
    silent(&targets("from sklearn.model_selection import cross_val_score, cross_val_predict, KFold\ncross_val_score(clf, X_train, y_price, cv=5)\ncross_val_predict(clf, X_train, y_price, cv=KFold(3))\ncross_val_predict(reg, X_train, y_price)"));
    // AdaBoost given a regressor fails otherwise (TypeError): not claimed.
    silent(&targets("ada_reg.fit(X_train, y_price)"));
    silent(&targets("from sklearn.ensemble import AdaBoostClassifier\nfrom sklearn.tree import DecisionTreeRegressor\nAdaBoostClassifier(estimator=DecisionTreeRegressor()).fit(X_train, y_price)"));
    silent(&targets("accuracy_score(labels, labels)\nr2_score(y_price, p)\nmean_squared_error(labels, p)\nroc_auc_score(labels, p)"));
    // Rounded, cast or binned in the cell first: the summary no longer describes the values.
    silent(&targets(
        "y_price = y_price.round()\nLogisticRegression().fit(X_train, y_price)",
    ));
    silent(&targets(
        "y = y_price.astype(int)\nLogisticRegression().fit(X_train, y)",
    ));
    silent(&targets("LogisticRegression().fit(X_train, np.round(y_price))\naccuracy_score(labels, (p > 0.5).astype(int))"));
    silent(&targets("houses['price'] = houses['price'].round()\nLogisticRegression().fit(X_train, houses['price'])"));
    silent(&targets(
        "y_price[y_price > 0] = 1\nLogisticRegression().fit(X_train, y_price)",
    ));
    silent(&targets(
        "p = np.where(p > 0.5, 1, 0)\naccuracy_score(labels, p)",
    ));
    silent(&targets("np.round(p, out=p)\naccuracy_score(labels, p)"));
    // A part of the data may leave every non-integer value out.
    silent(&targets("X_tr, X_te, y_tr, y_te = train_test_split(X_train, y_price)\nLogisticRegression().fit(X_tr, y_tr)"));
    silent(&targets("h = houses[houses['area'] > 50]\nLogisticRegression().fit(X_train, h['price'])\naccuracy_score(labels[0:10], p[0:10])"));
    silent(&targets(
        "g = houses.groupby('area').get_group(20)\nLogisticRegression().fit(X_train, g['price'])",
    ));
    // Predictions are not proof: probabilities and tree predictions may all be integers.
    silent(&targets("accuracy_score(labels, clf.predict_proba(X_train)[:, 1])\naccuracy_score(labels, reg.predict(X_train))"));
    // Probabilities of one class only (a forest fitted on one class), of a forest fitted in the
    // cell (classes unknown), of an SVC (predict_proba only with probability=True), next to
    // labels that may be 2-D, or in a metric that takes scores.
    silent(&targets("accuracy_score(labels, forest1.predict_proba(X_train))\naccuracy_score(labels, svc.predict_proba(X_train))"));
    silent(&targets("m = RandomForestClassifier()\nm.fit(X_train, labels)\naccuracy_score(labels, m.predict_proba(X_train))"));
    silent(&targets("accuracy_score(onehot, clf.predict_proba(X_train))\nroc_auc_score(labels, clf.predict_proba(X_train)[:, 1])"));
    // Object data, data of unknown dtype and torch tensors are not claimed.
    silent(&targets("LogisticRegression().fit(X_train, y_obj)\naccuracy_score(labels, p_undtyped)\naccuracy_score(labels, t)"));
}

// ---------- PyTorch shapes

const TORCH_IMPORTS: &str = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\nfrom torch.utils.data import DataLoader\nx = load()\nbatches = load()";

/// A notebook `nn.Module` class whose head is `head`, built into `model`.
fn torch_net(head: &str) -> String {
    format!(
        "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.conv = nn.Conv2d(3, 8, 3, padding=1)\n        self.pool = nn.MaxPool2d(2)\n        self.head = {head}\n        self.act = nn.Sigmoid()\n\n    def forward(self, x):\n        x = self.pool(F.relu(self.conv(x)))\n        x = x.view(-1, 8 * 4 * 4)\n        x = self.head(x)\n        return self.act(x)\n\nmodel = Net()\nloss_fn = nn.BCELoss()"
    )
}

const TORCH_LOADER: &str = r#""loader": {"type": "torch.utils.data.dataloader.DataLoader", "kind": "dataloader",
    "S": {"batch_size": 32, "num_batches": 13, "batch_shapes": [[10, 3, 8, 8], [10]]}},
    "model": {"type": "__main__.Net", "kind": "object"},
    "loss_fn": {"type": "torch.nn.modules.loss.BCELoss", "kind": "torch_module"}"#;

#[test]
fn torch_layers_must_chain() {
    let broken = torch_net("nn.Sequential(nn.Linear(128, 64), nn.ReLU(), nn.Linear(32, 1))");
    let t = "out = model(x)";
    fires(
        &run(&[TORCH_IMPORTS, &broken], t, ""),
        t,
        "torch-layer-mismatch",
        "model(x)",
        &[
            "Net.head[2]",
            "Linear(32, 1)",
            "(?, 64)",
            "RuntimeError",
            "any input",
        ],
    );
    // In a loop over data that may be empty, inside a function: the module's own fault stays.
    let t = "def train():\n    for xb in batches:\n        out = model(xb)\n\ntrain()";
    fires(
        &run(&[TORCH_IMPORTS, &broken], t, ""),
        t,
        "torch-layer-mismatch",
        "train()",
        &["Linear(32, 1)"],
    );
    // A Sequential built in the cell.
    let t = "seq = nn.Sequential(nn.Linear(10, 5), nn.Dropout(0.2), nn.Linear(6, 1))\ny = seq(x)";
    fires(
        &run(&[TORCH_IMPORTS], t, ""),
        t,
        "torch-layer-mismatch",
        "seq(x)",
        &["seq[2]", "Linear(6, 1)", "5 features"],
    );
    // Moved to a device (`.to` returns the module).
    let moved = broken.replace("model = Net()", "model = Net().to('cpu')");
    fires(
        &run(&[TORCH_IMPORTS, &moved], "out = model(x)", ""),
        "out = model(x)",
        "torch-layer-mismatch",
        "model(x)",
        &["Linear(32, 1)"],
    );
    let fixed = torch_net("nn.Sequential(nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 1))");
    silent(&run(&[TORCH_IMPORTS, &fixed], "out = model(x)", ""));
    // A lazy layer takes whatever comes.
    let lazy = torch_net("nn.Sequential(nn.Linear(128, 64), nn.ReLU(), nn.LazyLinear(1))");
    silent(&run(&[TORCH_IMPORTS, &lazy], "out = model(x)", ""));
    silent(&run(
        &[TORCH_IMPORTS],
        "seq = nn.Sequential(nn.Linear(10, 5), nn.Flatten(), nn.LazyLinear(1))\ny = seq(x)",
        "",
    ));
    // The layer replaced (in this cell or an earlier one, or by setattr), the class redefined
    // before the model was built, a branch in forward before the head.
    silent(&run(
        &[TORCH_IMPORTS, &broken],
        "model.head = nn.Linear(128, 1)\nout = model(x)",
        "",
    ));
    silent(&run(
        &[TORCH_IMPORTS, &broken, "model.head[2] = nn.Linear(64, 1)"],
        "out = model(x)",
        "",
    ));
    silent(&run(
        &[
            TORCH_IMPORTS,
            &broken,
            "setattr(model, 'head', nn.Linear(128, 1))",
        ],
        "out = model(x)",
        "",
    ));
    silent(&run(
        &[TORCH_IMPORTS, &broken, &fixed],
        "out = model(x)",
        "",
    ));
    let branchy = broken.replace(
        "        x = self.head(x)",
        "        if x.shape[1] == 64:\n            return x\n        x = self.head(x)",
    );
    silent(&run(&[TORCH_IMPORTS, &branchy], "out = model(x)", ""));
    // A base that is not nn.Module; a model the kernel says is something else.
    let other = broken.replace("class Net(nn.Module)", "class Net(Base)");
    silent(&run(
        &[TORCH_IMPORTS, "Base = nn.Module", &other],
        "out = model(x)",
        "",
    ));
    silent(&run(
        &[TORCH_IMPORTS, &broken],
        "out = model(x)",
        r#""model": {"type": "__main__.Other", "kind": "object"}"#,
    ));
}

#[test]
fn torch_layers_must_take_the_input() {
    let t = "layer = nn.Linear(10, 5)\nx = torch.randn(32, 12)\ny = layer(x)";
    fires(
        &run(&[TORCH_IMPORTS], t, ""),
        t,
        "torch-input-mismatch",
        "layer(x)",
        &[
            "x has shape (32, 12)",
            "Linear(10, 5)",
            "12 features",
            "RuntimeError",
        ],
    );
    let t = "conv = nn.Conv2d(3, 16, 3)\nimg = torch.randn(8, 64, 64, 3)\ny = conv(img)";
    fires(
        &run(&[TORCH_IMPORTS], t, ""),
        t,
        "torch-input-mismatch",
        "conv(img)",
        &[
            "(8, 64, 64, 3)",
            "Conv2d(3, 16)",
            "3 channels",
            "64 channels",
        ],
    );
    let t =
        "conv = nn.Conv2d(3, 16, 3)\nimg = torch.randn(8, 3, 64, 64).unsqueeze(-1)\ny = conv(img)";
    fires(
        &run(&[TORCH_IMPORTS], t, ""),
        t,
        "torch-input-mismatch",
        "conv(img)",
        &["(8, 3, 64, 64, 1)", "4D (batched)"],
    );
    // A notebook class on a tensor the kernel summarized.
    let net = torch_net("nn.Linear(128, 1)");
    let objs = r#""X": {"type": "torch.Tensor", "kind": "tensor", "S": {"shape": [16, 1, 8, 8]}}"#;
    fires(
        &run(&[TORCH_IMPORTS, &net], "out = model(X)", objs),
        "out = model(X)",
        "torch-input-mismatch",
        "model(X)",
        &["X has shape (16, 1, 8, 8)", "Net.conv", "3 channels"],
    );
    let t = "fc = nn.Linear(40, 2)\nx = torch.randn(8, 3, 4, 4)\ny = fc(x.view(8, -1))";
    fires(
        &run(&[TORCH_IMPORTS], t, ""),
        t,
        "torch-input-mismatch",
        "fc(x.view(8, -1))",
        &["(8, 48)", "Linear(40, 2)"],
    );
    silent(&run(
        &[TORCH_IMPORTS],
        "fc = nn.Linear(48, 2)\nx = torch.randn(8, 3, 4, 4)\ny = fc(x.view(x.size(0), -1))",
        "",
    ));
    silent(&run(
        &[TORCH_IMPORTS],
        "fc = nn.Linear(40, 2)\nx = torch.randn(8, 3, 4, 4)\nx.unsqueeze_(0)\ny = fc(x)",
        "",
    ));
    // Linear works on the last dimension, whatever the leading ones; unbatched conv input; lazy
    // layers; a shape not known.
    silent(&run(
        &[TORCH_IMPORTS],
        "layer = nn.Linear(10, 5)\ny = layer(torch.randn(4, 7, 10))",
        "",
    ));
    silent(&run(
        &[TORCH_IMPORTS],
        "conv = nn.Conv2d(3, 16, 3)\ny = conv(torch.randn(3, 64, 64))",
        "",
    ));
    silent(&run(
        &[TORCH_IMPORTS],
        "layer = nn.LazyLinear(5)\ny = layer(torch.randn(32, 12))",
        "",
    ));
    silent(&run(
        &[TORCH_IMPORTS],
        "layer = nn.Linear(10, 5)\ny = layer(x)",
        "",
    ));
    silent(&run(
        &[TORCH_IMPORTS, &net],
        "out = model(X)",
        &objs.replace("[16, 1, 8, 8]", "[16, 3, 8, 8]"),
    ));
    // A live Linear the kernel summarized.
    let live = r#""fc": {"type": "torch.nn.modules.linear.Linear", "kind": "torch_module",
        "S": {"n_params": 55, "n_layers": 1},
        "R": {"first_layer": {"class": "Linear", "in_features": 10, "out_features": 5},
              "last_layer": {"class": "Linear", "in_features": 10, "out_features": 5}}},
        "X": {"type": "torch.Tensor", "kind": "tensor", "S": {"shape": [4, 12]}},
        "Z": {"type": "torch.Tensor", "kind": "tensor", "S": {"shape": [4, 10]}}"#;
    fires(
        &run(&[TORCH_IMPORTS], "fc(X)", live),
        "fc(X)",
        "torch-input-mismatch",
        "fc(X)",
        &["(4, 12)", "Linear(10, 5)"],
    );
    silent(&run(&[TORCH_IMPORTS], "fc(Z)", live));
    // A container's first leaf in registration order need not be the first applied.
    let container = live.replace("linear.Linear", "container.Sequential");
    silent(&run(&[TORCH_IMPORTS], "fc(X)", &container));
}

#[test]
fn torch_binary_losses_need_targets_of_the_input_size() {
    let t = "out = torch.rand(32, 1)\ny = torch.rand(32)\nloss = nn.BCELoss()(out, y)";
    fires(
        &run(&[TORCH_IMPORTS], t, ""),
        t,
        "torch-loss-shape",
        "nn.BCELoss()(out, y)",
        &["out has shape (32, 1)", "y has shape (32,)", "ValueError"],
    );
    let t = "out = torch.rand(32, 1)\ny = torch.rand(32)\nloss = F.binary_cross_entropy_with_logits(out, y)";
    fires(
        &run(&[TORCH_IMPORTS], t, ""),
        t,
        "torch-loss-shape",
        "F.binary_cross_entropy_with_logits(out, y)",
        &["(32, 1)", "(32,)"],
    );
    // A model of the notebook on the batches of a DataLoader.
    let net = torch_net("nn.Linear(128, 1)");
    let t = "for xb, yb in loader:\n    out = model(xb)\n    loss = loss_fn(out, yb)";
    fires(
        &run(&[TORCH_IMPORTS, &net], t, TORCH_LOADER),
        t,
        "torch-loss-shape",
        "loss_fn(out, yb)",
        &["out has shape (?, 1)", "yb has shape (?,)"],
    );
    // The kernel's own summary: the default collate of the probed samples.
    let live = |collate: &str, length: i64| {
        format!(
            r#""loader": {{"type": "torch.utils.data.dataloader.DataLoader", "kind": "dataloader",
            "S": {{"batch_size": 32, "num_workers": 0}},
            "R": {{"drop_last": false, "sampler": "RandomSampler", "collate_fn": "{collate}",
                  "dataset": {{"type": "__main__.Images", "kind": "torch_dataset", "S": {{"length": {length}}},
                              "R": {{"class": "__main__.Images", "samples_agree": true,
                                    "sample": [{{"type": "Tensor", "shape": [3, 8, 8], "dtype": "torch.float32"}},
                                               {{"type": "int", "value": 1}}]}}}}}}}},
            "model": {{"type": "__main__.Net", "kind": "torch_module"}}"#
        )
    };
    let t = "for xb, yb in loader:\n    out = model(xb)\n    loss = nn.BCELoss()(out, yb)";
    let default = "torch.utils.data._utils.collate.default_collate";
    fires(
        &run(&[TORCH_IMPORTS, &net], t, &live(default, 100)),
        t,
        "torch-loss-shape",
        "nn.BCELoss()(out, yb)",
        &["(?, 1)", "(?,)"],
    );
    silent(&run(
        &[TORCH_IMPORTS, &net],
        t,
        &live("__main__.pad_batch", 100),
    ));
    silent(&run(&[TORCH_IMPORTS, &net], t, &live(default, 0)));
    let t = "for i, (xb, yb) in enumerate(loader, 1):\n    out = model(xb)\n    loss = loss_fn(out, yb)";
    fires(
        &run(&[TORCH_IMPORTS, &net], t, TORCH_LOADER),
        t,
        "torch-loss-shape",
        "loss_fn(out, yb)",
        &["(?, 1)", "(?,)"],
    );
    let t = "for i, (xb, yb) in enumerate(loader):\n    out = model(xb)\n    loss = loss_fn(out, yb.float().view(-1, 1))";
    silent(&run(&[TORCH_IMPORTS, &net], t, TORCH_LOADER));
    let t = "for xb, yb in loader:\n    out = model(xb)\n    loss = loss_fn(out.squeeze(1), yb)";
    silent(&run(&[TORCH_IMPORTS, &net], t, TORCH_LOADER));
    // A loader that may yield nothing; same sizes; losses that broadcast or take class indices.
    let t = "for xb, yb in loader:\n    out = model(xb)\n    loss = loss_fn(out, yb)";
    silent(&run(
        &[TORCH_IMPORTS, &net],
        t,
        &TORCH_LOADER.replace("\"num_batches\": 13, ", ""),
    ));
    silent(&run(
        &[TORCH_IMPORTS],
        "loss = nn.BCELoss()(torch.rand(32, 1), torch.rand(32, 1))",
        "",
    ));
    silent(&run(
        &[TORCH_IMPORTS],
        "loss = nn.MSELoss()(torch.rand(32, 1), torch.rand(32))",
        "",
    ));
    silent(&run(
        &[TORCH_IMPORTS],
        "loss = nn.CrossEntropyLoss()(torch.rand(32, 4), torch.rand(32))",
        "",
    ));
    let t = "scores = torch.rand(8, 4)\nlabels = torch.zeros(6, dtype=torch.long)\nloss = F.cross_entropy(scores, labels)";
    fires(
        &run(&[TORCH_IMPORTS], t, ""),
        t,
        "torch-loss-shape",
        "F.cross_entropy(scores, labels)",
        &[
            "scores has shape (8, 4)",
            "labels has shape (6,)",
            "Expected input batch_size (8) to match target batch_size (6)",
        ],
    );
    silent(&run(
        &[TORCH_IMPORTS],
        "loss = nn.CrossEntropyLoss()(torch.rand(8, 4), torch.rand(8, 4))",
        "",
    ));
    silent(&run(
        &[TORCH_IMPORTS],
        "loss = nn.NLLLoss()(torch.rand(8, 4), torch.zeros(8, dtype=torch.long))",
        "",
    ));
    let t = "loss = nn.MSELoss()(torch.rand(32, 3), torch.rand(32, 2))";
    fires(
        &run(&[TORCH_IMPORTS], t, ""),
        t,
        "torch-loss-shape",
        "nn.MSELoss()(torch.rand(32, 3), torch.rand(32, 2))",
        &["(32, 3)", "(32, 2)", "do not broadcast"],
    );
}

#[test]
fn torch_image_classifiers_take_three_channel_images() {
    let history = [TORCH_IMPORTS, "import torchvision.models as models"];
    let t = "net = models.resnet18(weights=None)\nfor xb, yb in loader:\n    net.train()\n    out = net(xb)\nnet.eval()\nfor xb, yb in loader:\n    out = net(xb.unsqueeze(-1))";
    fires(
        &run(&history, t, TORCH_LOADER),
        t,
        "torch-input-mismatch",
        "net(xb.unsqueeze(-1))",
        &[
            "(?, 3, 8, 8, 1)",
            "net (its first layer)",
            "Conv2d(3, ?)",
            "4D (batched)",
        ],
    );
    let t = "net = models.vgg16()\nimg = torch.rand(2, 1, 224, 224)\nout = net(img)";
    fires(
        &run(&history, t, ""),
        t,
        "torch-input-mismatch",
        "net(img)",
        &["(2, 1, 224, 224)", "3 channels", "1 channels"],
    );
    // The first layer replaced, here or in an earlier cell; a module passed to a function in the
    // loop; images of 3 channels.
    silent(&run(
        &history,
        "net = models.resnet18()\nnet.conv1 = nn.Conv2d(1, 64, 7)\nout = net(torch.rand(2, 1, 224, 224))",
        "",
    ));
    silent(&run(
        &[history[0], history[1], "other.conv1 = nn.Conv2d(1, 64, 7)"],
        "net = models.resnet18()\nout = net(torch.rand(2, 1, 224, 224))",
        "",
    ));
    silent(&run(
        &[history[0], history[1], "def tweak(m):\n    return m"],
        "net = models.resnet18()\nfor xb, yb in loader:\n    tweak(net)\nout = net(torch.rand(2, 1, 224, 224))",
        TORCH_LOADER,
    ));
    silent(&run(
        &history,
        "net = models.resnet18()\nout = net(torch.rand(2, 3, 224, 224))",
        "",
    ));
}

#[test]
fn torch_containers_changed_in_place_are_not_followed() {
    let t = "seq = nn.Sequential(nn.Linear(10, 5), nn.Linear(6, 1))\nseq.pop(1)\ny = seq(x)";
    silent(&run(&[TORCH_IMPORTS], t, ""));
    let broken = torch_net("nn.Sequential(nn.Linear(128, 64), nn.ReLU(), nn.Linear(32, 1))");
    silent(&run(
        &[TORCH_IMPORTS, &broken, "model.head.pop(2)"],
        "out = model(x)",
        "",
    ));
    let appended = broken.replace(
        "        self.act = nn.Sigmoid()",
        "        self.act = nn.Sigmoid()\n        self.head.append(nn.Identity())",
    );
    silent(&run(&[TORCH_IMPORTS, &appended], "out = model(x)", ""));
}

/// The classic LeNet of the PyTorch tutorial, flattening with `flatten`.
fn lenet(flatten: &str) -> String {
    format!(
        "class LeNet(nn.Module):\n    def __init__(self):\n        super(LeNet, self).__init__()\n        self.conv1 = nn.Conv2d(3, 6, 5)\n        self.pool = nn.MaxPool2d(2, 2)\n        self.conv2 = nn.Conv2d(6, 16, kernel_size=(5, 5), stride=1, padding=0)\n        self.fc1 = nn.Linear(16 * 5 * 5, 120)\n        self.fc2 = nn.Linear(120, 10)\n\n    def forward(self, x):\n        x = self.pool(F.relu(self.conv1(x)))\n        x = F.max_pool2d(F.relu(self.conv2(x)), 2)\n        x = {flatten}\n        x = F.relu(self.fc1(x))\n        return self.fc2(x)\n\nnet = LeNet()"
    )
}

#[test]
fn torch_convolutions_and_pooling_give_known_sizes() {
    let images = |side: i64| {
        format!(
            r#""images": {{"type": "torch.Tensor", "kind": "tensor", "S": {{"shape": [4, 3, {side}, {side}]}}}}"#
        )
    };
    let t = "out = net(images)";
    for flatten in [
        "torch.flatten(x, 1)",
        "x.view(x.size(0), -1)",
        "x.reshape(x.shape[0], -1)",
    ] {
        let net = lenet(flatten);
        fires(
            &run(&[TORCH_IMPORTS, &net], t, &images(64)),
            t,
            "torch-input-mismatch",
            "net(images)",
            &[
                "images has shape (4, 3, 64, 64)",
                "LeNet.fc1",
                "Linear(400, 120)",
                "(4, 2704)",
            ],
        );
        silent(&run(&[TORCH_IMPORTS, &net], t, &images(32)));
    }
    // `view(-1, 400)` may make other rows of the elements (or raise only for some batch sizes).
    silent(&run(
        &[TORCH_IMPORTS, &lenet("x.view(-1, 16 * 5 * 5)")],
        t,
        &images(64),
    ));
    // Padding 'same', adaptive pooling, ceil mode (not followed).
    let t = "seq = nn.Sequential(nn.Conv2d(3, 8, 3, padding='same'), nn.AdaptiveAvgPool2d((2, None)), nn.Flatten(), nn.Linear(8 * 2 * 10, 1))\ny = seq(torch.rand(4, 3, 10, 10))";
    silent(&run(&[TORCH_IMPORTS], t, ""));
    let t = "seq = nn.Sequential(nn.Conv2d(3, 8, 3, padding='same'), nn.AdaptiveAvgPool2d((2, None)), nn.Flatten(), nn.Linear(8 * 2 * 2, 1))\ny = seq(torch.rand(4, 3, 10, 10))";
    fires(
        &run(&[TORCH_IMPORTS], t, ""),
        t,
        "torch-input-mismatch",
        "seq(torch.rand(4, 3, 10, 10))",
        &["seq[3]", "Linear(32, 1)", "(4, 160)"],
    );
    let t = "seq = nn.Sequential(nn.MaxPool2d(2, ceil_mode=True), nn.Flatten(), nn.Linear(3 * 4 * 4, 1))\ny = seq(torch.rand(4, 3, 7, 7))";
    silent(&run(&[TORCH_IMPORTS], t, ""));
}

#[test]
fn torch_classes_defined_in_the_cell() {
    let net = torch_net("nn.Sequential(nn.Linear(128, 64), nn.ReLU(), nn.Linear(32, 1))");
    let t = format!("{net}\nout = model(x)");
    fires(
        &run(&[TORCH_IMPORTS], &t, ""),
        &t,
        "torch-layer-mismatch",
        "model(x)",
        &["Net.head[2]"],
    );
    // Defined in a loop that may not run; rebound after.
    let t = format!(
        "for _ in batches:\n{}\nout = model(x)",
        net.lines()
            .map(|l| format!("    {l}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    silent(&run(&[TORCH_IMPORTS], &t, ""));
    let t = format!("{net}\nNet = nn.Identity\nmodel = Net()\nout = model(x)");
    silent(&run(&[TORCH_IMPORTS], &t, ""));
    // Built and called in a function of an earlier cell: the cell's own changes still count.
    let make = "def make():\n    m = Net()\n    return m(x)";
    fires(
        &run(&[TORCH_IMPORTS, &net, make], "make()", ""),
        "make()",
        "torch-layer-mismatch",
        "make()",
        &["Net.head[2]"],
    );
    silent(&run(
        &[TORCH_IMPORTS, &net, make],
        "Net.forward = lambda self, x: x\nmake()",
        "",
    ));
}

#[test]
fn torch_tabular_data_through_a_tensor_dataset() {
    let objs = r#""X_train": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [100, 8]}},
        "y_train": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [100]}}"#;
    let setup = |first: &str, loader: &str| {
        format!(
            "from tqdm import tqdm\nfrom torch.utils.data import TensorDataset\nX = torch.tensor(X_train, dtype=torch.float32)\ny = torch.from_numpy(y_train)\nloader = DataLoader(TensorDataset(X, y), {loader})\nmodel = nn.Sequential(nn.Linear({first}, 16), nn.ReLU(), nn.Linear(16, 1), nn.Sigmoid())\ncriterion = nn.BCELoss()\n"
        )
    };
    let train = "for xb, yb in tqdm(loader):\n    out = model(xb)\n    loss = criterion(out, yb)";
    let t = setup("10", "batch_size=16, shuffle=True") + train;
    fires(
        &run(&[TORCH_IMPORTS], &t, objs),
        &t,
        "torch-input-mismatch",
        "model(xb)",
        &["xb has shape (?, 8)", "model[0]", "Linear(10, 16)"],
    );
    let t = setup("8", "batch_size=16, shuffle=True") + train;
    fires(
        &run(&[TORCH_IMPORTS], &t, objs),
        &t,
        "torch-loss-shape",
        "criterion(out, yb)",
        &["out has shape (?, 1)", "yb has shape (?,)"],
    );
    let t = setup("10", "batch_size=16") + "xb, yb = next(iter(loader))\nout = model(xb)";
    fires(
        &run(&[TORCH_IMPORTS], &t, objs),
        &t,
        "torch-input-mismatch",
        "model(xb)",
        &["(?, 8)"],
    );
    // Targets reshaped; a loader left empty by drop_last; a collate function of the notebook.
    let t = setup("8", "batch_size=16")
        + &train.replace("criterion(out, yb)", "criterion(out, yb.unsqueeze(1))");
    silent(&run(&[TORCH_IMPORTS], &t, objs));
    let t = setup("8", "batch_size=128, drop_last=True") + train;
    silent(&run(&[TORCH_IMPORTS], &t, objs));
    let t = setup("10", "batch_size=16, collate_fn=pad") + train;
    silent(&run(
        &[TORCH_IMPORTS, "def pad(b):\n    return b"],
        &t,
        objs,
    ));
}

#[test]
fn torch_loaders_of_datasets_the_kernel_probed() {
    let objs = r#""train_ds": {"type": "torchvision.datasets.folder.ImageFolder", "kind": "torch_dataset",
        "S": {"length": 500},
        "R": {"class": "torchvision.datasets.folder.ImageFolder", "samples_agree": true,
              "sample": [{"type": "Tensor", "shape": [1, 28, 28], "dtype": "torch.float32"}, {"type": "int", "value": 3}]}}"#;
    let history = [TORCH_IMPORTS, "import torchvision.models as models"];
    let t = "loader = DataLoader(train_ds, batch_size=64, shuffle=True)\nnet = models.resnet18(num_classes=10)\nfor xb, yb in loader:\n    out = net(xb)";
    fires(
        &run(&history, t, objs),
        t,
        "torch-input-mismatch",
        "net(xb)",
        &["xb has shape (?, 1, 28, 28)", "3 channels", "1 channels"],
    );
    // Samples that differ; a custom collate function.
    silent(&run(
        &history,
        t,
        &objs.replace("\"samples_agree\": true", "\"samples_agree\": false"),
    ));
    silent(&run(
        &[history[0], history[1], "def pad(b):\n    return b"],
        &t.replace("shuffle=True", "shuffle=True, collate_fn=pad"),
        objs,
    ));
    // A Keras utility given a PyTorch layer the kernel summarized.
    let live = r#""fc": {"type": "torch.nn.modules.linear.Linear", "kind": "torch_module",
        "R": {"first_layer": {"class": "Linear", "in_features": 10, "out_features": 5}}}"#;
    let t = "import tensorflow as tf\ntf.keras.utils.plot_model(fc)";
    fires(
        &run(&[], t, live),
        t,
        "keras-foreign-model",
        "tf.keras.utils.plot_model(fc)",
        &["fc", "PyTorch"],
    );
}

// ---------- in-place pandas methods return None (pytypes)

/// Checked in CPython with pandas 3: `df.dropna(inplace=True)` returns None, so `.head()` of
/// its result raises AttributeError; without `inplace` the result is a frame.
#[test]
fn the_result_of_an_inplace_pandas_method_is_none() {
    let t = "df = pd.DataFrame({'a': [1.0, None]})\nclean = df.dropna(inplace=True)\nclean.head()";
    fires(
        &run(&[IMPORTS], t, ""),
        t,
        "missing-attribute",
        "head",
        &["'NoneType' object has no attribute 'head'"],
    );
    silent(&run(
        &[IMPORTS],
        "df = pd.DataFrame({'a': [1.0, None]})\nclean = df.dropna()\nclean.head()",
        "",
    ));
}

#[test]
fn the_kernels_undefined_answer_keeps_a_called_functions_name_error() {
    let make = "def make():\n    n = 3\n    return helper(n)";
    let history: Vec<String> = [IMPORTS, make].iter().map(|s| s.to_string()).collect();
    // The kernel was asked about `helper` (a global `make` reads) and has no such name.
    let doc: SummaryDoc = serde_json::from_str(&format!(
        r#"{{"schema": 1, "objects": {{{TITANIC}, "helper": {{"error": "undefined"}}}}}}"#
    ))
    .unwrap();
    let names: Vec<String> = ["df", "pd", "np", "plt", "sns", "make"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let t = "m = make()";
    let d = check_cell(&CheckInput {
        cells: &history,
        target_source: t,
        target_index: None,
        history: &history,
        history_raised: &[],
        kernel_names: Some(&names),
        summaries: Some(&doc),
        severities: &Severities::new(),
    })
    .diagnostics;
    fires(
        &d,
        t,
        "undefined-name",
        "make()",
        &["`helper` is not defined"],
    );
}

#[test]
fn a_column_known_to_be_dropped_gets_no_did_you_mean() {
    let frame = r#""df": {"type": "pandas.core.frame.DataFrame", "kind": "dataframe",
        "S": {"shape": [891, 2]}, "R": {"columns": ["Fare", "Age"], "columns_complete": true}}"#;
    let t = "df['Name'].str.len()";
    let d = run(
        &[IMPORTS, "df.drop(columns=['Name'], inplace=True)"],
        t,
        frame,
    );
    fires(
        &d,
        t,
        "missing-column",
        "'Name'",
        &["an earlier cell dropped it"],
    );
    assert!(!d[0].message.contains("did you mean"), "{}", d[0].message);
    assert!(d[0].fix.is_none());
    // The cell that dropped it, run again: its own run dropped it, not an earlier cell.
    let t = "df.drop(columns=['Name'], inplace=True)";
    let d = run(&[IMPORTS, t], t, frame);
    fires(
        &d,
        t,
        "missing-column",
        "'Name'",
        &["this cell dropped it when it ran"],
    );
    fires(
        &d,
        t,
        "dropped-again",
        t,
        &["'Name'", "this cell dropped it when it ran"],
    );
    assert!(d.iter().all(|d| !d.message.contains("earlier")), "{d:#?}");
    // No resemblance, no suggestion: 'Name' is not 'Fare'.
    let d = run(&[IMPORTS], "df['Name']", frame);
    assert!(!d[0].message.contains("did you mean"), "{}", d[0].message);
}

// ---------- missing-attribute: what pandas 2 removed

/// TITANIC without dtypes: nothing says which pandas the kernel runs, and pandas 1 has `append`.
#[test]
fn removed_pandas_methods_only_when_the_kernel_shows_pandas_2() {
    // The kernel says nothing of its pandas: likely, not certain.
    let found = run(
        &[IMPORTS],
        "df = df.append(df)\nfor k, v in df.iteritems():\n    print(k)",
        TITANIC,
    );
    // After the first line, `df` is what a failed call gave: unknown.
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found
            .iter()
            .all(|d| d.severity == Severity::Warning && d.message.contains("likely")),
        "{found:#?}"
    );
    let pandas_1_text = TITANIC.replace(
        r#""columns_complete": true}"#,
        r#""columns_complete": true, "dtypes": {"Sex": "object"}}"#,
    );
    // Text of the `object` dtype: pandas 1 or 2, still not known.
    let found = run(&[IMPORTS], "df = df.append(df)", &pandas_1_text);
    assert!(
        found.len() == 1 && found[0].severity == Severity::Warning,
        "{found:#?}"
    );
    let pandas_3_text = TITANIC.replace(
        r#""columns_complete": true}"#,
        r#""columns_complete": true, "dtypes": {"Sex": "str"}}"#,
    );
    let t = "df = df.append(df)";
    fires(
        &run(&[IMPORTS], t, &pandas_3_text),
        t,
        "missing-attribute",
        "df.append",
        &["removed by pandas 2.0", "pd.concat"],
    );
}

// ---------- syntax that may or may not bind (the walker stays silent)

/// Each cell crashes in Python on some paths only (or binds a name on some paths only): the
/// walker must not claim the crash. `families::every_syntax_a_value_reaches_a_rule_through` holds
/// the certain variants.
#[test]
fn values_a_branch_may_or_may_not_bind_are_unknown() {
    let history = "import numpy as np\nimport random";
    let cells = [
        // A walrus an `and` may skip, one in a comprehension over what may be empty, one in a
        // branch of a conditional expression.
        "a = np.ones(3)\nrandom.random() > 0.5 and (a := np.ones(4))\na + np.ones(4)",
        "a = np.ones(3)\nn = random.randint(0, 2)\n[(a := np.ones(4)) for _ in range(n)]\na + np.ones(4)",
        "a = np.ones(3)\nx = (a := np.ones(4)) if random.random() > 0.5 else 0\na + np.ones(4)",
        // A walrus that rebinds a known name.
        "a = np.ones(3)\n(a := np.ones(4))\na + np.ones(4)",
        // Branches that disagree, or one that may not run.
        "a = np.ones(3) if random.random() > 0.5 else np.ones(4)\na + np.ones(4)",
        "a = np.ones(3)\nif random.random() > 0.5:\n    a = np.ones(4)\na + np.ones(4)",
        "if random.random() > 0.5:\n    a = np.ones(3)\nelse:\n    a = np.ones(4)\na + np.ones(4)",
        "k = random.randint(1, 3)\nif k == 1:\n    a = np.ones(3)\nelif k == 2:\n    a = np.ones(4)\nelse:\n    a = np.ones(3)\na + np.ones(4)",
        // A crash inside a branch that may not run.
        "if random.random() > 0.5:\n    np.ones(3) + np.ones(4)",
        "x = np.ones(3) + np.ones(4) if random.random() > 0.5 else 0",
        // `__name__` rebound by the cell.
        "__name__ = 'lib'\nif __name__ == '__main__':\n    np.ones(3) + np.ones(4)",
        // A try body with handlers may stop at any statement.
        "a = np.ones(3)\ntry:\n    a = np.ones(4)\nexcept Exception:\n    pass\na + np.ones(4)",
        // A list changed in place through another name (`+=`, `append` after `a = b = []`).
        "xs = [1]\nys = xs\nxs += [2]\nys[1]",
        "a = b = []\nb.append(1)\na[0]",
        // A comprehension with a condition: its length is not known.
        "xs = [x for x in range(3) if x > random.random()]\nxs[2]",
        // A walrus of an if test, its list changed in a branch.
        "if (xs := [1, 2]):\n    xs.append(3)\nxs[2]",
        // A global the function may leave before binding, or binds in a branch.
        "arr = np.ones(3)\ndef setup(flag):\n    global arr\n    if flag:\n        return\n    arr = np.ones(4)\nsetup(False)\narr + np.ones(4)",
        "arr = np.ones(3)\ndef setup():\n    global arr\n    if random.random() > 0.5:\n        arr = np.ones(4)\nsetup()\narr + np.ones(4)",
        // A starred list of unknown length.
        "base = [1] * random.randint(0, 5)\nxs = [*base, 3]\nxs[3]",
        // A loop's else after a break that may run; a while True body past its first jump.
        "for i in range(2):\n    if i == 1:\n        break\nelse:\n    np.ones(3) + np.ones(4)",
        "while True:\n    if random.random() > 0.5:\n        break\n    w = np.ones(3)\nw + np.ones(4)",
        // A dict merged from one of two dicts.
        "base = {'batch': 1} if random.random() > 0.5 else {}\nparams = {**base, 'epochs': 3}\nparams['batch']",
        // A walrus in a default binds when the `def` runs: not followed.
        "a = np.ones(3)\ndef f(x=(a := np.ones(4))):\n    return x\na + np.ones(4)",
        // A default that is not a literal is evaluated by the `def`, not the call.
        "n = 3\ndef make(k=n):\n    return np.ones(k)\nn = 4\nmake() + np.ones(3)",
    ];
    for cell in cells {
        let found = run(&[history], cell, "");
        assert!(found.is_empty(), "{cell}\n{found:#?}");
    }
}

// ---------- values earlier cells left (code only)

/// What an executed cell may have changed out of the walker's sight is not carried to later
/// cells: each target below runs fine, or may.
#[test]
fn values_earlier_cells_left_are_forgotten_when_uncertain() {
    let cases: &[(&[&str], &str)] = &[
        // Another name for the same list grew it.
        (&["a = [1]", "b = a", "b.append(2)"], "a[1]"),
        // A list inside another, changed through the outer one.
        (
            &["inner = [1]\nouter = [inner]", "outer[0].append(2)"],
            "inner[1]",
        ),
        // A function of the notebook changed the global it mentions.
        (
            &["items = [1]", "def add():\n    items.append(2)", "add()"],
            "items[1]",
        ),
        // ... or rebound it.
        (
            &[
                "limit = None",
                "def set_limit(v):\n    global limit\n    limit = v",
                "set_limit(int(input()))",
            ],
            "limit + 1",
        ),
        // The object went to a function that may change it.
        (&["rows = []", "fill(rows)"], "rows[0]"),
        // A function of the notebook may have run with no call in sight (a widget's callback).
        (
            &[
                "x = None",
                "def on_click(b):\n    global x\n    x = 5\n\nbutton.on_click(on_click)",
            ],
            "x + 1",
        ),
        (
            &[
                "items = []",
                "def on_change(v):\n    items.append(v)\n\nslider.observe(on_change)",
            ],
            "items[0]",
        ),
        // A loop of unknown length, a branch.
        (
            &["total = None", "for i in range(n):\n    total = i"],
            "total + 1",
        ),
        (&["value = None", "if flag:\n    value = 3"], "value + 1"),
        // Code the analysis cannot see.
        (&["x = None", "exec(code)"], "x + 1"),
        (&["x = None", "from helpers import *"], "x + 1"),
        (&["x = None", "%run setup.py"], "x + 1"),
        // A cell with a syntax error ran nothing; its statements that parse are not trusted.
        (&["x = 'a'", "x = 3\ny = ("], "x + 1"),
        // A column added through a view of the frame.
        (
            &[
                "df = pd.DataFrame({'a': [1]})",
                "view = df",
                "view['b'] = 2",
            ],
            "df['b']",
        ),
    ];
    for (cells, target) in cases {
        let mut history = vec![IMPORTS];
        history.extend(cells.iter());
        let found = run(&history, target, "");
        assert!(found.is_empty(), "{cells:?} then {target:?}: {found:#?}");
    }
}

/// The kernel is the truth: a name it lacks holds nothing, whatever the code says; its summary
/// of a name says more than the code.
#[test]
fn the_kernel_overrides_values_earlier_cells_left() {
    let history: Vec<String> = vec!["x = None".into()];
    let report = |kernel_names: &[String], objects: &str| {
        let doc: cellguard::summary::SummaryDoc =
            serde_json::from_str(&format!(r#"{{"schema": 1, "objects": {{{objects}}}}}"#)).unwrap();
        cellguard::check::check_cell(&cellguard::check::CheckInput {
            cells: &history,
            target_source: "x + 1",
            target_index: None,
            history: &history,
            history_raised: &[],
            kernel_names: Some(kernel_names),
            summaries: Some(&doc),
            severities: &cellguard::diagnostic::Severities::new(),
        })
        .diagnostics
    };
    let x = vec!["x".to_string()];
    assert_eq!(report(&x, "")[0].code, "operand-type");
    // The kernel restarted since: x is undefined there (the undefined-name rule says so).
    assert!(report(&[], "").iter().all(|d| d.code != "operand-type"));
    // The kernel holds an int in x now.
    silent(&report(
        &x,
        r#""x": {"type": "int", "kind": "int", "V": {"repr": "3"}}"#,
    ));
}

/// A run that raised stopped at a statement not known: none of the values its statements may
/// have left is trusted.
#[test]
fn values_a_run_that_raised_may_have_left_are_unknown() {
    let history: Vec<String> = vec![
        "x = 5\nitems = [1]".into(),
        "x = None\nitems.append(2)\nload()".into(),
    ];
    let check = |raised: &[usize], target: &str| {
        cellguard::check::check_cell(&cellguard::check::CheckInput {
            cells: &history,
            target_source: target,
            target_index: None,
            history: &history,
            history_raised: raised,
            kernel_names: None,
            summaries: None,
            severities: &cellguard::diagnostic::Severities::new(),
        })
        .diagnostics
    };
    assert_eq!(check(&[], "x + 1")[0].code, "operand-type");
    assert_eq!(check(&[], "items[2]")[0].code, "index-out-of-range");
    silent(&check(&[1], "x + 1"));
    silent(&check(&[1], "items[1]"));
}

// ---------- not-callable: properties of library objects called like methods

#[test]
fn library_properties_called_only_where_the_value_is_certain() {
    let frame = "import pandas as pd\nimport numpy as np";
    let t = "df = pd.DataFrame({'a': [1, 2], 'b': [3, 4]})\nn = df.shape()";
    fires(
        &run(&[frame], t, ""),
        t,
        "not-callable",
        "df.shape",
        &["'tuple' object is not callable", "drop the parentheses"],
    );
    // Callable attributes: the indexers take an axis (`df.iloc(axis=0)`), `plot` is an accessor
    // one calls, `size()` and `dim()` of a torch tensor are methods.
    silent(&run(
        &[frame],
        "df = pd.DataFrame({'a': [1, 2]})\nrows = df.iloc(0)[0]\nby_label = df.loc(axis=0)[0]\nax = df.plot()\nm = df.mean()",
        "",
    ));
    let torch = r#""t": {"type": "torch.Tensor", "kind": "tensor", "S": {"shape": [2, 3]}, "R": {"dtype": "torch.float32"}}"#;
    silent(&run(&["import torch"], "n = t.size()\nd = t.dim()", torch));
    let t = "s = t.shape()";
    fires(
        &run(&["import torch"], t, torch),
        t,
        "not-callable",
        "t.shape",
        &["'torch.Size'"],
    );
    // A subclass of DataFrame may define its own attributes; an object of unknown type, anything.
    let geo = r#""gdf": {"type": "geopandas.geodataframe.GeoDataFrame", "kind": "dataframe", "S": {"shape": [3, 2]}, "R": {"columns": ["a", "geometry"]}}"#;
    silent(&run(&["import geopandas"], "gdf.area()\ngdf.shape()", geo));
    silent(&run(&["x = load()"], "x.shape()\nx.values()", ""));
    // The values of a Series may be a pandas array: of what it may be, only what every array
    // shares (its shape) is certain.
    silent(&run(
        &[frame],
        "df = pd.DataFrame({'a': [1, 2]})\nv = df['a'].values\nw = v.T()",
        "",
    ));
    // A name rebound in a branch is no longer certainly the array.
    silent(&run(
        &[frame],
        "df = pd.DataFrame({'a': [1, 2]})\nv = df.values\nif df['a'].sum() > 5:\n    v = np.mean\nv()",
        "",
    ));
}

#[test]
fn fitted_attributes_called_only_of_fitted_scikit_learn_models() {
    let imports = "from sklearn.linear_model import LogisticRegression";
    let t = "clf = LogisticRegression().fit([[0], [1]], [0, 1])\nw = clf.coef_()";
    fires(
        &run(&[imports], t, ""),
        t,
        "not-callable",
        "clf.coef_",
        &["'numpy.ndarray'", "learns in fit"],
    );
    // Before fit the attribute is missing (another crash, another rule); a fitted attribute
    // whose class depends on the targets (`intercept_`) or that is an estimator is left out.
    let d = run(
        &[imports],
        "clf = LogisticRegression()\nw = clf.coef_()",
        "",
    );
    assert!(d.iter().all(|d| d.code != "not-callable"), "{d:#?}");
    silent(&run(
        &["from sklearn.linear_model import LinearRegression"],
        "reg = LinearRegression().fit([[0], [1]], [0.0, 1.0])\nb = reg.intercept_()",
        "",
    ));
    // A user's subclass is not scikit-learn's class.
    let custom =
        r#""model": {"type": "mylib.MyModel", "kind": "estimator", "R": {"fitted": true}}"#;
    silent(&run(&["import mylib"], "model.coef_()", custom));
}

// ---------- the notebook's own classes: constructors, methods, attributes

const POINT: &str = "class Point:\n    def __init__(self, x, y):\n        self.x = x\n        self.y = y\n\n    def moved(self, dx):\n        return Point(self.x + dx, self.y)";

#[test]
fn notebook_classes_checked_only_when_built_the_plain_way() {
    let t = "p = Point(1)";
    fires(
        &run(&[POINT], t, ""),
        t,
        "bad-arguments",
        "Point(1)",
        &["Point.__init__()", "'y'"],
    );
    // A base, a metaclass, a decorator or a hook may make instances or find attributes their
    // own way.
    for class in [
        "class Point(dict):\n    def __init__(self, x, y):\n        self.x = x",
        "class Point(metaclass=Meta):\n    def __init__(self, x, y):\n        self.x = x",
        "@dataclass\nclass Point:\n    def __init__(self, x, y):\n        self.x = x",
        "class Point:\n    def __new__(cls, *args):\n        return object.__new__(cls)\n\n    def __init__(self, x, y):\n        self.x = x",
        "class Point:\n    def __init__(self, x, y):\n        self.x = x\n\n    def __getattr__(self, name):\n        return 0",
        "class Point:\n    if flag:\n        def __init__(self, x, y):\n            self.x = x",
    ] {
        silent(&run(
            &["Meta = type\nflag = True\nfrom dataclasses import dataclass", class],
            "p = Point(1)\nq = Point(1, 2)\nq.z",
            "",
        ));
    }
    // Rebound since, or the kernel holds something else under the name.
    silent(&run(&[POINT, "Point = make_point"], "p = Point(1)", ""));
    let not_a_class = r#""Point": {"type": "function", "kind": "callable"}"#;
    silent(&run(&[POINT], "p = Point(1)", not_a_class));
}

#[test]
fn methods_of_notebook_instances_unless_rebound() {
    let t = "p = Point(1, 2)\np.moved()";
    fires(
        &run(&[POINT], t, ""),
        t,
        "bad-arguments",
        "p.moved()",
        &["Point.moved()", "'dx'"],
    );
    // An instance attribute of that name hides the method; static and class methods bind no
    // instance.
    silent(&run(&[POINT, "def patch(o):\n    o.moved = print"], t, ""));
    let statics = "class Tools:\n    @staticmethod\n    def scale(x):\n        return 2 * x\n\n    @classmethod\n    def build(cls):\n        return cls()";
    silent(&run(&[statics], "t = Tools()\nt.scale(3)\nt.build()", ""));
    // Not certainly an instance: made in a branch, or by a function.
    silent(&run(
        &[
            POINT,
            "import random\nok = random.random() < 0.5\nother = None",
        ],
        "if ok:\n    p = Point(1, 2)\nelse:\n    p = other\np.moved()",
        "",
    ));
}

#[test]
fn attributes_notebook_instances_lack_unless_stored_anywhere() {
    let t = "p = Point(1, 2)\nprint(p.z)";
    fires(
        &run(&[POINT], t, ""),
        t,
        "missing-attribute",
        "z",
        &["'Point' object has no attribute 'z'"],
    );
    // Stored by any code of the notebook on any object, or by setattr, __dict__ or vars.
    for elsewhere in [
        "def tag(o):\n    o.z = 0",
        "q = Point(0, 0)\nq.z = 1",
        "def fill(o, **kw):\n    for k, v in kw.items():\n        setattr(o, k, v)",
        "def fill(o, d):\n    o.__dict__.update(d)",
        "def fill(o, d):\n    vars(o).update(d)",
        "Point.z = 0",
    ] {
        silent(&run(&[POINT, elsewhere], t, ""));
    }
    // Set by a method (whether it ran or not), or a dunder every object has.
    let later = "class Point:\n    def __init__(self, x, y):\n        self.x = x\n\n    def fit(self):\n        self.z = 1";
    silent(&run(
        &[later],
        "p = Point(1, 2)\nprint(p.z)\nprint(p.__doc__)",
        "",
    ));
}

#[test]
fn instances_and_keras_models_called_only_when_certainly_not_callable() {
    let plain = "class Box:\n    def __init__(self, v):\n        self.v = v";
    let t = "b = Box(1)\nb(2)";
    fires(
        &run(&[plain], t, ""),
        t,
        "not-callable",
        "b",
        &["'Box' object is not callable"],
    );
    let callable = "class Box:\n    def __init__(self, v):\n        self.v = v\n\n    def __call__(self, x):\n        return x";
    silent(&run(&[callable], t, ""));
    silent(&run(&[plain, "Box.__call__ = lambda self, x: x"], t, ""));
    // Methods of a Keras model built in the cell are called; its properties are not.
    let t = "model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])\nmodel.summary()\nn = model.count_params()\nw = model.get_weights()";
    silent(&run(&["import keras"], t, ""));
}

#[test]
fn instances_of_executed_cells_only_where_the_kernel_agrees() {
    let made = "p = Point(1, 2)";
    let t = "print(p.z)";
    let point = r#""p": {"type": "__main__.Point", "kind": "object"}"#;
    fires(
        &run(&[POINT, made], t, point),
        t,
        "missing-attribute",
        "z",
        &["'Point' object has no attribute 'z'"],
    );
    let other = r#""p": {"type": "__main__.Vector", "kind": "object"}"#;
    silent(&run(&[POINT, made], t, other));
    // A function of the notebook that may have rebound it may have run.
    silent(&run(
        &[
            POINT,
            made,
            "def reset():\n    global p\n    p = None",
            "if flag:\n    reset()",
        ],
        t,
        "",
    ));
    // Made by a function, or by a class that is not plain.
    silent(&run(&[POINT, "p = make(Point)"], t, ""));
}

/// Statement forms the walker follows only as far as they certainly run: each of these cells
/// runs to its end, or may (a random choice), so nothing is reported.
#[test]
fn statement_forms_that_may_not_crash_stay_silent() {
    let history = "import numpy as np\nimport random";
    let cells = [
        // A handler that catches the exception: of its class, a base class, a tuple with one,
        // `Exception`, a bare `except`, a class the walker cannot tell (may catch anything).
        "d = {}\ntry:\n    d['k']\nexcept KeyError:\n    pass",
        "d = {}\ntry:\n    d['k']\nexcept LookupError:\n    pass",
        "try:\n    'a' + 1\nexcept (ValueError, TypeError):\n    pass",
        "try:\n    'a' + 1\nexcept Exception as e:\n    print(e)",
        "try:\n    'a' + 1\nexcept:\n    pass",
        "MyError = TypeError\ntry:\n    'a' + 1\nexcept MyError:\n    pass",
        "try:\n    np.ones((2, 3)).sum(axis=2)\nexcept np.exceptions.AxisError:\n    pass",
        "KeyError = TypeError\ntry:\n    'a' + 1\nexcept KeyError:\n    pass",
        // numpy's AxisError is an IndexError too.
        "try:\n    np.ones((2, 3)).sum(axis=2)\nexcept IndexError:\n    pass",
        // An earlier statement of the body may raise what the handler catches.
        "try:\n    import some_optional_module\n    [1, 2][5]\nexcept ImportError:\n    pass",
        "d = {}\ntry:\n    n = d['k']\n    'a' + 1\nexcept KeyError:\n    pass",
        "try:\n    v = random.choice([{}, {'k': 1}])['k']\n    'a' + 1\nexcept KeyError:\n    pass",
        // Something evaluated before it in the same statement may raise what is caught.
        "d = {}\ntry:\n    total = d['a'] + ('x' + 1)\nexcept KeyError:\n    total = 0",
        "try:\n    total = random.choice([{}, {'a': 1}])['a'] + ('x' + 1)\nexcept KeyError:\n    total = 0",
        "try:\n    print(str(random.random()).foo, [1][3])\nexcept AttributeError:\n    pass",
        // An operand of the failing operation may raise what is caught first.
        "text = str(random.random())\ntry:\n    n = int(text) + 'x'\nexcept ValueError:\n    n = 0",
        // A followed call: an earlier statement of the function may raise what is caught.
        "def f(d):\n    d['k']\n    return 'a' + 1\ntry:\n    f({})\nexcept KeyError:\n    pass",
        "def f():\n    n = random.choice([{}, {'k': 1}])['k']\n    return [1][3]\ntry:\n    f()\nexcept KeyError:\n    pass",
        // The `else` block runs only if the body raised nothing.
        "try:\n    n = int(str(random.random()))\nexcept ValueError:\n    n = 0\nelse:\n    'a' + 1",
        // Values the body binds, when it may stop early, and the handlers' values.
        "try:\n    a = np.ones(4)\n    b = np.ones(int(str(random.random())))\nexcept ValueError:\n    a = np.ones(3)\na + np.ones(3)",
        // A `finally` that jumps swallows the exception.
        "def f():\n    try:\n        return 'a' + 1\n    finally:\n        return 0\nf()",
        "for i in range(2):\n    try:\n        'a' + 1\n    finally:\n        continue",
        // An array changed in place: another name may hold it, a view of it sees new values.
        "a = np.ones(3)\nb = a\nb += np.ones(3)\nb = np.ones(4)\na + np.ones(3)",
        "v = np.array([np.nan, np.nan])\nw = v[:]\nv **= 0\nnp.histogram(w)",
        "v = np.array([np.nan, np.nan])\nw = [v[:]]\nv **= 0\nnp.histogram(w[0])",
        // What `with` binds: a binary file, a mode not known, `open` of another module.
        "with open('a.bin', 'rb') as f:\n    f.read() + b'x'",
        "mode = random.choice(['r', 'rb'])\nwith open('a.txt', mode) as f:\n    f.read() + b'x'",
        "from gzip import open\nwith open('a.gz') as f:\n    f.read() + b'x'",
        "import io\nwith io.open('a.txt', 'rb') as f:\n    f.read() + b'x'",
        // Reading a file closed, or whose bytes are no text, raises what a handler catches.
        "with open('a.txt') as f:\n    pass\ntry:\n    f.read() + 1\nexcept ValueError:\n    pass",
        "f = open('a.txt')\nf.close()\ntry:\n    f.read() + 1\nexcept ValueError:\n    pass",
        "try:\n    with open('a.txt') as f:\n        f.read() + 1\nexcept UnicodeDecodeError:\n    pass",
        "with open('a.txt') as f:\n    try:\n        n = f.read() + 1\n    except OSError:\n        n = 0",
        "f = open('a.txt')\nwith f as g:\n    g = 3\ng + 1",
        // A match whose case is not certain: a subject not known, a guard, a case before it
        // that may match (a class pattern, a bool case of an int subject), a jump in it.
        "match random.randint(0, 3):\n    case 3:\n        X = np.ones(4)\n    case _:\n        X = np.ones(3)\nX + np.ones(3)",
        "n = 3\nmatch n:\n    case 3 if random.random() > 0.5:\n        X = np.ones(4)\n    case _:\n        X = np.ones(3)\nX + np.ones(3)",
        "n = 3\nmatch n:\n    case int():\n        X = np.ones(3)\n    case 3:\n        X = np.ones(4)\nX + np.ones(3)",
        "n = 1\nmatch n:\n    case True:\n        X = np.ones(4)\n    case _:\n        X = np.ones(3)\nX + np.ones(3)",
        "for n in range(3):\n    match n:\n        case _:\n            continue\n            np.ones(3) + np.ones(4)",
        "cols = np.array(['a'])\nmatch cols:\n    case 'b':\n        X = np.ones(4)\n    case _:\n        X = np.ones(3)\nX + np.ones(3)",
        // Bools are ints wherever Python takes an int; a test not known to be a bool keeps the
        // join (an int flag, a comparison of values not known, of arrays, a walrus of the name).
        "xs = [1, 2]\nxs[True]\nxs[False:]\nrange(True)\nchr(True)\nhex(False)\n'%x' % True\n[0] * True\n~True",
        "flag = 1\nif flag:\n    w = np.ones(3)\nelse:\n    w = np.ones(4)\nw + np.ones(3)",
        "x = random.random()\nif x > 2:\n    w = np.ones(4)\nelse:\n    w = np.ones(3)\nw + np.ones(3)",
        "if (np.ones(3) > 2).any():\n    w = np.ones(4)\nelse:\n    w = np.ones(3)\nw + np.ones(3)",
        "n = 5\nif (n := n - 5) > 2:\n    w = np.ones(4)\nelse:\n    w = np.ones(3)\nw + np.ones(3)",
        "class Box:\n    pass\nok = isinstance(3, Box)\nif ok:\n    'a' + 1",
        "x = float('nan')\nif x == x:\n    'a' + 1",
        "a = [1]\nif a == [1]:\n    w = np.ones(3)\nelse:\n    w = np.ones(4)\nw + np.ones(3)",
        "v = np.ones(2)\nif v is None:\n    v = {}\nv + 1",
        "mode = random.choice([0, 1]) or 'fast'\nmode + 1",
        // A lambda that changes a global it mentions, called by name or by the call it is
        // passed to.
        "xs = [1]\nf = lambda: xs.append(2)\nf()\nxs[1]",
        "xs = []\nys = list(map(lambda n: xs.append(n), [1]))\nxs[0]",
        "xs = []\nfor v in map(lambda n: xs.append(n), [1]):\n    pass\nxs[0]",
        "def grow():\n    xs.append(1)\nxs = []\nzs = sorted([2, 1], key=lambda k: (grow(), k)[1])\nxs[0]",
    ];
    for cell in cells {
        let found = run(&[history], cell, "");
        assert!(found.is_empty(), "{cell}\n{found:#?}");
    }
    // Lambdas of executed cells: one that changes a global, one rebound since, one whose name the
    // kernel says holds something else.
    let after = [
        (
            vec!["grow = lambda: xs.append(2)"],
            "xs = [1]\ngrow()\nxs[1]",
            "",
        ),
        (
            vec!["first = lambda xs: xs[0]", "first = len"],
            "first([])",
            "",
        ),
        (
            vec!["first = lambda xs: xs[0]"],
            "first([])",
            r#""first": {"type": "builtins.builtin_function_or_method", "kind": "callable", "R": {"callable_kind": "builtin"}}"#,
        ),
    ];
    for (history, cell, objects) in after {
        let found = run(&history, cell, objects);
        assert!(found.is_empty(), "{cell}\n{found:#?}");
    }
}

#[test]
fn containers_iterables_and_literal_series_that_may_not_crash_stay_silent() {
    let history =
        "import numpy as np\nimport pandas as pd\nfrom helpers import other, more, k, flag, data, values";
    let cells = [
        // Another name may hold the container changed: both are forgotten.
        "d = {'a': 1}\ne = d\ne['b'] = 2\nd['b']",
        "xs = [1]\nys = xs\nys.append(2)\nxs[1]",
        "xs = [1]\nholder = [xs]\nholder[0].append(2)\nxs[1]",
        "a = [1]\nxs = [a, a]\nxs[0].append(2)\nxs[1][1]",
        "inner = []\nd = {'x': inner}\nd['x'].append(1)\ninner[0]",
        // What the statement adds is not known.
        "d = {'a': 1}\nd.update(other)\nd['b']",
        "d = {'a': 1}\nd[k] = 2\nd['b']",
        "xs = [1, 2]\nxs.extend(more)\nxs[5]",
        "d = {'a': 1}\nd.update([('b', 2)])\nd['b']",
        // Keys equal to an int key without being ints.
        "d = {1: 'a'}\nd[True] = 'b'\nd[1]",
        "d = {1: 'a'}\nd.pop(1.0)\nd[2] = 0\nd[2]",
        // A default keeps a missing key from raising.
        "d = {'a': 1}\nd.pop('b', 0)\nd['a']",
        // Which element `remove` takes is not decided for values of other types.
        "xs = ['a', 1]\nxs.remove(1)\nxs[0] + 'b'",
        // A function the statement calls changes the object before the statement's own change,
        // or binds a global the statement binds after.
        "xs = [1]\ndef f():\n    xs.append(2)\n    return 3\nxs.append(f())\nxs[2]",
        "n = 0\ndef bump():\n    global n\n    n = 'x'\n    return 5\nn = bump()\nn + 1",
        "xs = [1]\ndef f():\n    xs.append(2)\n    return [3]\nxs += f()\nxs[2]",
        "d = {}\ndef f():\n    d['a'] = 1\n    return 2\nd['b'] = f()\nd['b']",
        // A function's change the walker follows (to a list that then has the index).
        "xs = [1, 2]\ndef grow():\n    xs.append(3)\ngrow()\nxs[2]",
        // Changes the walker cannot follow: in a function's branch or loop, a function that may
        // raise before its change inside a `try`, a branch, a loop over unknown data.
        "xs = []\ndef grow(on):\n    if on:\n        xs.append(1)\ngrow(flag)\nxs[0]",
        "xs = []\ndef grow(items):\n    for i in items:\n        xs.append(i)\ngrow(data)\nxs[0]",
        "xs = []\ndef grow():\n    other()\n    xs.append(1)\ntry:\n    grow()\nexcept Exception:\n    pass\nxs[0]",
        "xs = [1, 2]\nif flag:\n    xs.append(3)\nxs[2]",
        "xs = [1, 2]\nfor v in data:\n    xs.append(v)\nxs[2]",
        // Operators the iterables take.
        "d = {'a': 1}\nd.keys() & {'a'}",
        "d = {'a': 1}\nd.items() - {('a', 1)}",
        "d = {'a': 1}\n['a'] | d.keys()",
        "'%s' % range(3)",
        "np.arange(3) + range(3)",
        "[1] * len(range(3))",
        "xs = [1]\nxs += range(3)",
        "st = {1}\nd = {'a': 1}\nst |= d.keys()",
        "d = {'a': 1}\nd |= [('b', 2)]\nd['b']",
        // Built from what is not known.
        "d = dict(other)\nd['b']",
        "d = dict(**other)\nd['b']",
        "xs = list(data)\nxs[5]",
        // Series whose dtype is not the literal's.
        "s = pd.Series([1, 'a'])\ns.str.len()",
        "s = pd.Series([1, 2], dtype=str)\ns.str.len()",
        "s = pd.Series([1, 2])\ns = s.astype(str)\ns.str.len()",
        "df = pd.DataFrame({'a': [1, 2]}, dtype=str)\nc = df['a']\nc.str.len()",
        "df = pd.DataFrame({'a': [1, 2]})\ndf['b'] = ['x', 1]\ndf['b'].str.len()",
        "df = pd.DataFrame([[1, 'a'], [2, 'b']], columns=['n', 's'], dtype=str)\ndf['n'].str.len()",
        "df = pd.DataFrame([[1, 'a'], ['x', 'b']], columns=['n', 's'])\ndf['n'].str.len()",
        "df = pd.read_csv('f.csv')\ndf['b'] = values\ndf['b'].str.len()",
    ];
    for cell in cells {
        let found = run(&[history], cell, "");
        assert!(found.is_empty(), "{cell}\n{found:#?}");
    }
}

#[test]
fn attributes_pandas_removed_stay_silent_with_an_earlier_pandas() {
    let history = "import pandas as pd";
    let module = |version: &str| module_summary("pd", "pandas", version);
    let cases = [
        // The kernel runs a pandas that has them.
        (
            "frame = pd.DataFrame({'a': [1]})\nframe.as_matrix()",
            module("0.25.3"),
        ),
        (
            "frame = pd.DataFrame({'a': [1]})\nframe.append(frame)",
            module("1.5.3"),
        ),
        // A column of that name is what the attribute gives.
        (
            "frame = pd.DataFrame({'sort': [1]})\nframe.sort",
            module("3.1.1"),
        ),
        // Columns not known: one may have the name.
        ("frame = pd.read_csv('f.csv')\nframe.order", module("3.1.1")),
        // A method pandas 3 added (the table is read off the installed pandas).
        (
            "frame = pd.DataFrame({'a': [1]})\nframe.from_arrow",
            String::new(),
        ),
    ];
    for (cell, objects) in cases {
        let found = run(&[history], cell, &objects);
        assert!(found.is_empty(), "{cell}\n{found:#?}");
    }
}

// ---------- undefined-name: a function of the notebook called, code alone

/// With no kernel, the names the cells that ran bound are the namespace: a call of the notebook's
/// function that certainly reads a name none of them, nor the cell before the call, binds raises
/// NameError (as the order module says of the cell's own reads).
#[test]
fn functions_called_read_names_no_cell_that_ran_binds() {
    let check = |history: &[&str], target: &str| {
        let history: Vec<String> = history.iter().map(|s| s.to_string()).collect();
        cellguard::check::check_cell(&cellguard::check::CheckInput {
            cells: &history,
            target_source: target,
            target_index: None,
            history: &history,
            history_raised: &[],
            kernel_names: None,
            summaries: None,
            severities: &cellguard::diagnostic::Severities::new(),
        })
        .diagnostics
    };
    let helper = "def scaled(x):\n    return x * scale";
    for target in ["scaled(3)", "for v in [1, 2]:\n    print(scaled(v))"] {
        let found = check(&[helper], target);
        assert!(
            found.iter().any(|d| d.code == "undefined-name"
                && d.message.contains("`scale` is not defined")
                && d.message.contains("in `scaled`, line 2")
                && d.message.contains("the cells that ran")),
            "{target}: {found:?}"
        );
    }
    // Through another function of the notebook.
    let found = check(
        &[helper, "def twice(x):\n    return 2 * scaled(x)"],
        "twice(1)",
    );
    assert!(
        found.iter().any(|d| d.code == "undefined-name"),
        "{found:?}"
    );
    // Bound by a cell that ran, by the cell before the call, by the function itself, or
    // possibly by code the analysis cannot see; or read only on a branch: silent.
    silent(&check(&[helper, "scale = 2"], "scaled(3)"));
    silent(&check(&[helper], "scale = 2\nscaled(3)"));
    silent(&check(
        &[helper, "for scale in [1, 2]:\n    pass"],
        "scaled(3)",
    ));
    silent(&check(&[helper, "from config import *"], "scaled(3)"));
    silent(&check(&[helper], "from config import *\nscaled(3)"));
    silent(&check(
        &[helper],
        "from config import *\nscaled(3)\nscale = 2",
    ));
    silent(&check(&[helper, "exec(code)"], "scaled(3)"));
    silent(&check(
        &["def f(x):\n    scale = 2\n    return x * scale"],
        "f(3)",
    ));
    silent(&check(
        &["def f(x):\n    if x:\n        return scale\n    return 0"],
        "f(3)",
    ));
    silent(&check(
        &["def f(x):\n    global scale\n    scale = 2\n    return x * scale"],
        "f(3)",
    ));
}

// ---------- the walker's former gaps: what it cannot follow stays unknown

/// Names an executed cell bound to values the rules cannot know.
const KNOWN_NOT: &str = "from helpers import data, pick, flag, pred, counter";

/// Lists passed to functions of the notebook the walk cannot follow to their end, or whose
/// parameter may hold another object, or that a lambda changes: unknown after the call.
#[test]
fn lists_changed_by_functions_the_walk_cannot_follow_stay_unknown() {
    let add = "def add(xs):\n    xs.append(1)";
    for target in [
        // The function may return before the change.
        "def maybe(xs, flag):\n    if flag:\n        return\n    xs.append(1)\nys = []\nmaybe(ys, input() == 'y')\nys[0]",
        // The argument calls a function of the kernel first (it may be another list).
        "ys = []\nadd(pick(ys))\nys[0]",
        // Another name holds the list passed.
        "ys = []\nal = ys\nadd(al)\nys[0]",
        // A lambda changes it: its body is an expression, no statement the walk follows.
        "push = lambda xs: xs.append(1)\nys = []\npush(ys)\nys[0]",
        // The function changes one list through two names.
        "zs = []\ndef both(xs):\n    zs.append(0)\n    xs.append(1)\nboth(zs)\nzs[1]",
        // The parameter is rebound before the change: the caller's list is not the one changed.
        "def fresh(xs):\n    xs = list(xs)\n    xs.append(1)\nys = [5]\nfresh(ys)\nys[0]",
    ] {
        silent(&run(&[KNOWN_NOT, add], target, ""));
    }
}

/// `map`, `filter` and `sorted` whose iterable, function or direction is not known.
#[test]
fn map_filter_and_sorted_of_what_is_not_known_stay_unknown() {
    for target in [
        "a = list(map(lambda x: x * 2, data))\na[5]",
        "b = list(filter(pred, [1, 2, 3]))\nb[2]",
        "s = sorted([3, 1, 2], reverse=flag)\n{3: 0}[s[0]]",
        "s = sorted([3, 1, 2], key=lambda x: -x)\n{1: 0}[s[0]]",
        "c = list(map(lambda x: x + counter(), [1, 2]))\n{2: 0}[c[0]]",
    ] {
        silent(&run(&[KNOWN_NOT], target, ""));
    }
}

/// `match` cases that may or may not run: an unknown subject, patterns of the notebook's classes
/// or with keywords, guards, values of classes that are not plain or whose attribute the
/// notebook stores to.
#[test]
fn match_cases_not_certain_to_run_leave_names_unknown() {
    for target in [
        "match data:\n    case [x]:\n        r = []\n    case _:\n        r = [1]\nr[0]",
        "class P:\n    pass\nmatch 3:\n    case P():\n        r = []\n    case _:\n        r = [1]\nr[0]",
        "match 3:\n    case int(real=4):\n        r = []\n    case _:\n        r = [1]\nr[0]",
        "match [1]:\n    case [x] if flag:\n        r = []\n    case _:\n        r = [1]\nr[0]",
        "from enum import Enum\nclass C(Enum):\n    A = 'a'\nmatch 'a':\n    case C.A:\n        r = []\n    case _:\n        r = [1]\nr[0]",
        "class K:\n    A = 'a'\nK.A = 'b'\nmatch 'b':\n    case K.A:\n        r = [1]\n    case _:\n        r = []\nr[0]",
    ] {
        silent(&run(&[KNOWN_NOT], target, ""));
    }
}

/// A name the pandas module lost, on a kernel whose pandas is older than the release that
/// removed it, or after the notebook stored an attribute of that name.
#[test]
fn removed_pandas_module_names_on_older_or_patched_pandas_are_silent() {
    let pandas_1 = r#""pd": {"type": "module", "kind": "module", "R": {"module": "pandas", "version": "1.5.3"}}"#;
    silent(&run(
        &["import pandas as pd"],
        "z = pd.np.zeros(3)",
        pandas_1,
    ));
    silent(&run(
        &["import pandas as pd\nimport numpy\npd.np = numpy"],
        "z = pd.np.zeros(3)",
        "",
    ));
}

/// A list or dict changed through one name while another name or a container may hold it: a
/// later change through the other goes unseen, so the first name's value is not trusted past
/// it (in this cell) nor past the cell. Every target runs fine.
#[test]
fn objects_changed_through_another_name_stay_unknown() {
    for (history, target) in [
        ("", "ys = []\nxs = ys\nys.append(0)\nxs.append(1)\nys[1]"),
        ("", "ys = []\nd = {'k': ys}\nys.append(0)\nd['k'].append(1)\nys[1]"),
        ("", "ys = [1]\nal = ys\nys[0] = 5\nal.append(1)\nys[1]"),
        ("", "ys = [1]\nal = ys\nys += [2]\nal.append(1)\nys[2]"),
        ("ys = []\nxs = ys\nys.append(0)", "xs.append(1)\nys[1]"),
        (
            "",
            "zs = []\nal = zs\ndef f():\n    zs.append(0)\nf()\nal.append(1)\nzs[1]",
        ),
        (
            "",
            "def add(xs):\n    xs.append(1)\nys = []\nal = ys\nadd(ys)\nal.append(1)\nys[1]",
        ),
        (
            "",
            "def f(xs):\n    keep.append(xs)\n    xs.append(1)\nkeep = [[5]]\nys = []\nf(ys)\nkeep[1].append(2)\nys[1]",
        ),
    ] {
        let d = run(&[history], target, "");
        assert!(d.is_empty(), "{target}: {d:#?}");
    }
}

/// `predict` gives one value per sample only for an estimator this cell fitted on one column of
/// targets: fitted on a frame of targets (LinearRegression then predicts a column per target) or
/// summarized by the kernel, the length of its predictions is not claimed.
#[test]
fn predictions_of_models_fitted_on_several_target_columns_have_no_known_length() {
    let history = "import pandas as pd\nfrom sklearn.linear_model import LinearRegression\nfrom sklearn.metrics import r2_score\ndf = pd.DataFrame({'x': [1.0, 2.0, 3.0, 4.0], 'y': [2.0, 4.0, 6.0, 8.0]})";
    let crash = "model = LinearRegression().fit(df[['x']], df['y'])\nr2_score([1.0, 2.0], model.predict(df[['x']]))";
    assert!(run(&[history], crash, "")
        .iter()
        .any(|d| d.code == "sklearn-sample-mismatch"));
    silent(&run(
        &[history],
        "model = LinearRegression().fit(df[['x']], df[['y']])\nr2_score([1.0, 2.0], model.predict(df[['x']]))",
        "",
    ));
    silent(&run(
        &["from sklearn.metrics import r2_score"],
        "r2_score([1.0, 2.0], model.predict(X))",
        r#""model": {"type": "sklearn.linear_model.LinearRegression", "kind": "estimator", "V": {"fitted": true}, "S": {"n_features_in": 1}}, "X": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [4, 1], "dtype": "float64"}}"#,
    ));
}

/// What torch's tensor contracts leave unknown stays silent: a tensor of unknown rank, a dim
/// not known, an integer tensor converted by `dtype=`, floats, a class that may call
/// `nn.Module.__init__` before its modules, or that gains `forward` later, a class of another
/// base, and an optimizer given what `parameters` returned.
#[test]
fn torch_tensor_contracts_stay_silent_on_what_is_not_known() {
    let imports = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\nfrom data import load, pick\ndt = pick()";
    for target in [
        "x = load()\ns = x.sum(dim=5)",
        "x = torch.randn(2, 3)\nd = pick()\ns = x.sum(dim=d)",
        "x = torch.randn(2, 3)\ns = x.sum(dim=-2)\nu = x.unsqueeze(-3)\ny = x.permute(-1, 0)",
        "x = torch.tensor(5.0)\ns = x.sum(0)",
        "x = torch.randn(2, 3)\nx = load()\ns = x.sum(dim=2)",
        "t = torch.tensor([1, 2, 3])\nm = t.mean(dtype=torch.float64)",
        "t = torch.tensor([1.0, 2.0])\nm = t.mean()\ns = t.std()\np = F.softmax(t, dim=0)",
        "t = torch.zeros(3, dtype=dt)\nm = t.mean()",
        "t = torch.arange(0, 1, 0.1)\nm = t.mean()",
        "t = torch.tensor([True, False])\nn = t.sum()",
        "v = torch.randn(1, 1).item()\nw = torch.randn(3)[0].item()",
        "class Net(nn.Module):\n    def __init__(self):\n        self.setup()\n        self.fc = nn.Linear(3, 1)\n\n    def setup(self):\n        nn.Module.__init__(self)\n\n    def forward(self, x):\n        return self.fc(x)\n\nnet = Net()",
        "class Net(nn.Module):\n    def __init__(self):\n        nn.Module.__init__(self)\n        self.fc = nn.Linear(3, 1)\n\n    def forward(self, x):\n        return self.fc(x)\n\nnet = Net()",
        "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(3, 1)\n\nnet = Net()\nnet.forward = lambda x: net.fc(x)\nout = net(torch.randn(2, 3))",
        "class Base(nn.Module):\n    def forward(self, x):\n        return x\n\nclass Net(Base):\n    def __init__(self):\n        super().__init__()\n\nnet = Net()\nout = net(torch.randn(2, 3))",
        "model = nn.Linear(3, 1)\nparams = model.parameters()\nopt = torch.optim.SGD(params, lr=0.1)",
        "model = load()\nopt = torch.optim.SGD(model.parameters, lr=0.1)",
    ] {
        silent(&run(&[imports], target, ""));
    }
    // float64 data into a module some cell may have given float64 weights.
    let numpy = "import numpy as np\nX = np.zeros((4, 3))";
    for (earlier, target) in [
        (
            "model = nn.Linear(3, 1)\nmodel.double()",
            "out = model(torch.from_numpy(X))",
        ),
        (
            "model = nn.Linear(3, 1).to(torch.float64)",
            "out = model(torch.from_numpy(X))",
        ),
        (
            "model = nn.Linear(3, 1)\nmodel = model.to(dtype=torch.float64)",
            "out = model(torch.from_numpy(X))",
        ),
        (
            "torch.set_default_dtype(torch.float64)\nmodel = nn.Linear(3, 1)",
            "out = model(torch.from_numpy(X))",
        ),
        (
            "model = nn.Linear(3, 1, dtype=torch.float64)",
            "out = model(torch.from_numpy(X))",
        ),
        (
            "model = nn.Linear(3, 1)\ndef prepare(m):\n    return m.double()",
            "out = model(torch.from_numpy(X))",
        ),
        (
            "model = nn.Linear(3, 1)",
            "model.type(torch.float64)\nout = model(torch.from_numpy(X))",
        ),
        (
            "model = nn.Linear(3, 1)",
            "model = model.to(X)\nout = model(torch.from_numpy(X))",
        ),
        // Float targets of the scores' shape are probabilities; a target of unknown dtype; scores
        // of unknown rank.
        (
            "p = np.full((4, 3), 1 / 3)",
            "loss = F.cross_entropy(torch.randn(4, 3), torch.from_numpy(p))",
        ),
        (
            "y = load()",
            "loss = F.cross_entropy(torch.randn(4, 3), torch.tensor(y))",
        ),
        (
            "scores = load()\ny = np.zeros(4)",
            "loss = F.cross_entropy(scores, torch.from_numpy(y))",
        ),
        // torch raises RuntimeError where numpy raises ValueError: a handler of it catches.
        (
            "a = torch.randn(2, 3)",
            "try:\n    b = a.view(4, 2)\nexcept RuntimeError:\n    b = a",
        ),
    ] {
        silent(&run(&[imports, numpy, earlier], target, ""));
    }
}

// ---------- Python and numpy contracts: what is not certain stays silent

/// numpy arrays and scalars and pandas objects divided by zero warn (inf, nan); a divisor or a
/// counter that may not be zero, a branch or handler that may not raise; a function reading a
/// global that a branch may have bound, or that a loop binds on an earlier pass (silent by
/// design: not followed inside loops), or that it binds itself; a tuple of bools (one index per
/// axis to numpy), bools mixed with integers (positions), a bool Series (aligned by its index);
/// samples with replacement or an unknown `replace`, scales not known negative, `polyfit` of a
/// 2-D `y` and `corrcoef` of a matrix with a vector of its width; dtype names numpy knows, of
/// another grammar (digits, brackets, one letter), or given to pandas (its own dtypes).
#[test]
fn python_and_numpy_contracts_not_certain_stay_silent() {
    let history = [IMPORTS, "from helpers import rows, flag, sig"];
    for t in [
        "a = np.arange(3)\na / 0",
        "v = np.float64(2.0)\nv / 0",
        "m = np.mean([1, 2])\nm / 0",
        "s = pd.Series([1, 2])\ns / 0",
        "n = 0\nfor r in rows:\n    n += 1\n1 / n",
        "n = 0\nfor r in [1, 2]:\n    n += 1\n1 / n",
        "if flag:\n    n = 2\nelse:\n    n = 0\n1 / n",
        "z = 0\nr = 1 / z if z else 0",
        "try:\n    1 / 0\nexcept ZeroDivisionError:\n    pass",
        "t = '%d' % 0",
        "def scaled(v):\n    return v * scale\nfor i in range(3):\n    if i:\n        y = scaled(i)\n    scale = 2",
        "def scaled(v):\n    return v * scale\nfor i in range(3):\n    y = scaled(i)\n    scale = 2",
        "def setup():\n    global scale\n    scale = 2\n    return scale\nsetup()\nscale = 3",
        "def scaled(v):\n    return v * scale\nif flag:\n    scale = 1\ny = scaled(3)\nscale = 2",
        "a = np.arange(5)\nm = (True, False)\na[m]",
        "a = np.arange(5)\na[[True, 0, 1]]",
        "df = pd.DataFrame({'a': [1, 2, 3]})\ndf[df['a'] > 1]",
        "np.random.choice(3, 5)",
        "np.random.choice(3, 5, replace=flag)",
        "np.random.default_rng().choice(5, 3, replace=False)",
        "np.random.normal(-1, 1)",
        "np.random.normal(0, sig)",
        "xs = np.arange(4)\nys = np.zeros((4, 2))\nnp.polyfit(xs, ys, 1)",
        "np.corrcoef(np.zeros((2, 3)), np.zeros(3))",
        "np.arange(3).astype('float32')",
        "np.arange(3).astype('U10')",
        "np.arange(3).astype('datetime64[ns]')",
        "np.arange(3).astype('unicode')",
        "np.arange(3).astype('f')",
        "pd.Series([1, 2]).astype('category')",
        "pd.Series(['a']).astype('string')",
        "np.random.randint(rows, 10)",
        "np.random.randint(0, 1)\nnp.random.randint(1)\nnp.random.randint(3, None)",
        "np.random.seed(0)\nnp.random.seed(sig)",
        "np.percentile(np.arange(4), [0, 100])\nnp.quantile(np.arange(4), [0.0, 1.0])",
        "np.percentile(np.arange(4), sig)",
        "pd.Series([1, 2]).quantile(0.5)",
        "np.histogram([1, 2], bins=1)\nnp.histogram([1, 2], bins='auto')\nnp.histogram([1, 2], bins=[0, 1, 2])",
    ] {
        let found = run(&history, t, "");
        assert!(found.is_empty(), "{t}\n{found:#?}");
    }
    // A global an executed cell bound is defined when the call runs.
    silent(&run(
        &[IMPORTS, "def scaled(v):\n    return v * scale", "scale = 1"],
        "y = scaled(3)\nscale = 2",
        "",
    ));
}

// ---------- keras-unknown-identifier

#[test]
fn keras_unknown_identifier_only_for_keras_layers_and_known_strings() {
    let keras_2 = r#""keras": {"type": "module", "kind": "module", "R": {"module": "keras", "version": "2.15.0"}}"#;
    // Another library's `activation=`: PyTorch, scikit-learn, a class of the notebook.
    silent(&run(
        &["import torch.nn as nn"],
        "enc = nn.TransformerEncoderLayer(8, 2, activation='rellu')",
        "",
    ));
    silent(&run(
        &["from sklearn.neural_network import MLPClassifier"],
        "clf = MLPClassifier(activation='rellu')",
        "",
    ));
    silent(&run(
        &["class Dense:\n    def __init__(self, n, activation=None):\n        self.a = activation"],
        "d = Dense(3, activation='rellu')",
        "",
    ));
    // Keras 2's tf_keras names differ; a kernel that runs another Keras release.
    silent(&run(
        &["import tf_keras"],
        "d = tf_keras.layers.Dense(3, activation='rellu')",
        "",
    ));
    silent(&run(
        &["import keras"],
        "d = keras.layers.Dense(3, kernel_regularizer='l1_l2')",
        keras_2,
    ));
    // (Keras 3 has no 'l1_l2': likely where the kernel did not say its release.)
    let t = "d = keras.layers.Dense(3, kernel_regularizer='l1_l2')";
    fires(
        &run(&["import keras"], t, ""),
        t,
        "keras-unknown-identifier",
        "'l1_l2'",
        &["likely", "did you mean"],
    );
    // A string not known exactly, a callable, None; a parameter the layer does not resolve.
    silent(&run(
        &["import keras\nimport random"],
        "act = random.choice(['relu', 'tanh'])\nd = keras.layers.Dense(3, activation=act)",
        "",
    ));
    silent(&run(
        &["import keras"],
        "d = keras.layers.Dense(3, activation=keras.activations.relu, bias_initializer=None)",
        "",
    ));
    silent(&run(
        &["import keras"],
        "d = keras.layers.Dense(3, activation='relu', kernel_initializer='GlorotUniform', kernel_regularizer='L2')",
        "",
    ));
    // `compile` of what is not a Keras model; of one under another Keras release; an
    // optimizer object; a name in another case (Keras matches optimizers ignoring case).
    silent(&run(
        &["class Net:\n    def compile(self, optimizer):\n        self.opt = optimizer\nnet = Net()"],
        "net.compile(optimizer='adamm')",
        "",
    ));
    silent(&run(
        &["import torch\nnet = torch.nn.Linear(3, 1)"],
        "net.compile(optimizer='adamm')",
        "",
    ));
    // Pooling layers take any padding when built; PyTorch's convolutions are not Keras's.
    silent(&run(
        &["import keras\nimport torch.nn as nn"],
        "pool = keras.layers.MaxPooling2D(padding='full')\nconv = nn.Conv2d(3, 8, 3, padding='ful')",
        "",
    ));
    let seq = "import keras\nmodel = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])";
    silent(&run(
        &[seq],
        "model.compile(optimizer='adamm', loss='mse')",
        keras_2,
    ));
    silent(&run(
        &[seq],
        "model.compile(optimizer=keras.optimizers.Adam(1e-3), loss='mse')\nmodel.compile(optimizer='RMSprop', loss='mse')",
        "",
    ));
    // `fit` after a loss given as a function of the notebook, or as the cross-entropy `compile`
    // picks in any case; a model the kernel describes (its loss may be a function's name).
    let fit = "import numpy as np\nx, y = np.zeros((4, 3)), np.zeros((4, 1))";
    silent(&run(
        &[
            seq,
            fit,
            "def my_loss(t, p):\n    return (t - p) ** 2\nmodel.compile(loss=my_loss)",
        ],
        "model.fit(x, y, verbose=0)",
        "",
    ));
    silent(&run(
        &[seq, fit, "model.compile(loss='CE')"],
        "model.fit(x, y, verbose=0)",
        "",
    ));
    let t = "model.fit(x, y, verbose=0)";
    fires(
        &run(&[seq, fit, "model.compile(loss='Crossentropyy')"], t, ""),
        t,
        "keras-unknown-identifier",
        t,
        &["loss='Crossentropyy'"],
    );
    let described = r#""model": {"type": "keras.src.models.sequential.Sequential", "kind": "keras_model", "R": {"loss": "my_loss"}, "V": {"compiled": true}}"#;
    silent(&run(&[fit], "model.fit(x, y, verbose=0)", described));
}

#[test]
fn keras_history_logs_stay_silent_where_their_keys_are_not_known() {
    let imports = "import numpy as np\nfrom tensorflow import keras\nfrom data import load, split, record\nX = np.zeros((8, 4))\ny = np.zeros(8)\nmodel = keras.Sequential([keras.layers.Input((4,)), keras.layers.Dense(1, activation='sigmoid')])";
    let compiled =
        "model.compile(optimizer='adam', loss='binary_crossentropy', metrics=['accuracy'])";
    for target in [
        // The third positional parameter is `metrics` in Keras 2, `loss_weights` in Keras 3.
        "model.compile('adam', 'binary_crossentropy', ['mse'])\nh = model.fit(X, y)\nv = h.history['mse']",
        // A metric object logs under its own name.
        "model.compile(optimizer='adam', loss='binary_crossentropy', metrics=[keras.metrics.AUC()])\nh = model.fit(X, y)\nv = h.history['auc']",
        // Keras 2 logs a metric named by a class in lower case.
        "model.compile(optimizer='adam', loss='binary_crossentropy', metrics=['AUC'])\nh = model.fit(X, y)\nv = h.history['auc']",
        "model.compile(optimizer='adam', loss='binary_crossentropy', metrics=load())\nh = model.fit(X, y)\nv = h.history['accuracy']",
        "model.compile(optimizer='adam', loss='binary_crossentropy', metrics=['accuracy'], weighted_metrics=['mae'])\nh = model.fit(X, y)\nv = h.history['mae']",
    ] {
        silent(&run(&[imports], target, ""));
    }
    for target in [
        // Callbacks may log keys of their own.
        "h = model.fit(X, y, callbacks=[keras.callbacks.ReduceLROnPlateau()])\nv = h.history['learning_rate']",
        // Validation data that may or may not be given.
        "h = model.fit(X, y, validation_data=split())\nv = h.history['val_loss']",
        "frac = load()\nh = model.fit(X, y, validation_split=frac)\nv = h.history['val_loss']",
        "h = model.fit(X, y, 32, 10, 0, None, 0.2)\nv = h.history['val_loss']",
        // Keys given to the logs before they are read.
        "h = model.fit(X, y)\nh.history['val_loss'] = [0.0]\nv = h.history['val_loss']",
        "h = model.fit(X, y)\nlogs = h.history\nlogs.update(val_loss=[0.0])\nv = logs['val_loss']",
        "h = model.fit(X, y)\nrecord(h)\nv = h.history['val_loss']",
        "h = model.fit(X, y)\nfor k in ['val_loss']:\n    h.history.setdefault(k, [])\n    v = h.history['val_loss']",
        "h = model.fit(X, y)\nv = h.history.get('val_loss')",
    ] {
        silent(&run(&[imports, compiled], target, ""));
    }
    // An earlier cell that gave the logs a key, or a function of the notebook that may have.
    for (earlier, target) in [
        (
            "h = model.fit(X, y)\nh.history['val_loss'] = [0.0]",
            "v = h.history['val_loss']",
        ),
        (
            "h = model.fit(X, y)\ndef extend():\n    h.history['val_loss'] = [0.0]\nextend()",
            "v = h.history['val_loss']",
        ),
        (
            "h = model.fit(X, y)\nlogs = h.history\nlogs['val_loss'] = []",
            "v = logs['val_loss']",
        ),
    ] {
        silent(&run(&[imports, compiled, earlier], target, ""));
    }
}

/// The kernel's `numpy` module bound to `np`, of release `version`.
fn numpy_module(version: &str) -> String {
    module_summary("np", "numpy", version)
}

#[test]
fn numpy_names_removed_in_the_kernels_release_only() {
    let history = ["import numpy as np"];
    // `np.bool` left with 1.24 and came back with 2.0.
    let t = "flag = np.bool(1)";
    fires(
        &run(&history, t, &numpy_module("1.26.4")),
        t,
        "missing-attribute",
        "bool",
        &["1.24", "2.0 brought it back", "numpy 1.26"],
    );
    for (t, objects) in [
        ("flag = np.bool(1)", numpy_module("2.1.0")),
        // Whether the kernel's numpy is one without it is not known.
        ("flag = np.bool(1)", String::new()),
        ("x = np.float(3)", numpy_module("1.23.5")),
        ("x = np.NaN", numpy_module("1.26.4")),
        ("p = np.product([1, 2])", numpy_module("2.0.2")),
    ] {
        silent(&run(&history, t, &objects));
    }
    // The notebook gave the module the name itself, or reads it only where it may be there.
    silent(&run(
        &["import numpy as np", "np.float = float"],
        "x = np.float(3)",
        &numpy_module("2.0.0"),
    ));
    for t in [
        "np.NaN = float('nan')\nx = np.NaN",
        "if hasattr(np, 'float'):\n    x = np.float",
        "try:\n    x = np.NaN\nexcept AttributeError:\n    x = np.nan",
        "x = getattr(np, 'NaN', np.nan)",
        "x = np.nan if np.__version__ >= '2' else np.NaN",
    ] {
        silent(&run(&history, t, &numpy_module("2.0.0")));
    }
}

#[test]
fn numpy_indices_and_operands_not_known_stay_silent() {
    let history = [
        "import numpy as np\nimport pandas as pd",
        "a = np.arange(3)\nm = np.zeros((2, 3))\nn = len(input())\nconditions = [a > 0, a > 1]",
        "def load():\n    return np.load('x.npy')",
    ];
    for t in [
        // `mode` clips or wraps the index.
        "np.take(a, 7, mode='clip')",
        "a.take([0, 9], axis=0, mode='wrap')",
        "np.put(a, 5, 0, mode='clip')",
        // Indices of unknown values, a mask, a tuple naming two axes of a matrix.
        "a[np.argsort(a)[:2]]",
        "a[[True, False, True]]",
        "m[(1, 2)]",
        "np.delete(a, slice(0, 9))",
        "np.take(a, [0, n])",
        // Operands of unknown shapes, bounds given by keyword.
        "np.where(a > 0, a, load())",
        "np.clip(a, a_min=np.zeros(2), a_max=None)",
        "np.select(conditions, [a, np.zeros(4)])",
        // `...` broadcasts; `optimize=` takes another path.
        "np.einsum('...j,jk', m, np.ones((4, 5)))",
        "np.einsum('ij,jk', m, np.ones((4, 5)), optimize=True)",
        // An integer beside an index list moves the list's axis first: (2, 3), not (3, 2).
        "b = np.zeros((5, 3, 4))[0, :, [0, 1]]\nb.reshape(2, 3)\nb.reshape(3, 2)",
        // A Series' values may be a pandas array, a transformer's output a frame.
        "v = pd.Series([1, 2, 3]).values\nv[[0, 5]]\nv.take(7)",
        // Guarded.
        "try:\n    a[[0, 5]]\nexcept IndexError:\n    pass",
        "for k in range(5):\n    if k < 3:\n        print(a[[k]], np.take(a, k))",
    ] {
        silent(&run(&history, t, ""));
    }
}

#[test]
fn item_assignment_of_arrays_that_can_change_stays_silent() {
    let imports =
        "import numpy as np\nimport tensorflow as tf\nimport torch\nfrom data import load";
    for target in [
        "a = np.zeros((2, 2))\na[0, 0] = 1.0",
        "t = torch.zeros(3)\nt[0] = 1.0",
        "x = tf.zeros((3,)).numpy()\nx[0] = 1.0",
        "x = tf.zeros((3,))\nx = load()\nx[0] = 1.0",
        "v = tf.Variable(tf.zeros((3,)))\nv[0].assign(1.0)",
    ] {
        silent(&run(&[imports], target, ""));
    }
}

// ---------- Python builtins: shapes that stay silent

/// What may not raise stays silent: a dict or set the code may have filled (through an unknown
/// value, a function, an alias, a loop that may not run), a class whose body or base may answer
/// subscripts, `len` and iteration, a name a function of the cell may bind by `global`, a test
/// that is not known, zipped keys that may outnumber their values, a sum of floats (Python adds
/// them with compensation), slices by unknown bounds, a function's name made global or bound by
/// a statement that may have run before the read, the elements of a comprehension that filters
/// them or calls a method that may change what the next element sees.
#[test]
fn python_builtins_silent_where_not_certain() {
    let history = "import json\nother = json.load(open('x'))\nws = other['w']";
    for target in [
        "d = {}\nd.update(other)\nd['x'] += 1",
        "d = {}\nfor w in ws:\n    d[w] = 1\nd['x'] += 1",
        "d = {}\nfor w in ws:\n    d[w] += 1",
        "d = {}\nd |= other\nd['x'] += 1",
        "d = {}\ne = d\ne['x'] = 0\nd['x'] += 1",
        "d = {}\ndef fill(z):\n    z.update(other)\nfill(d)\nd['x'] += 1",
        "d = {}\nother.fill(d)\nd['x'] += 1",
        "s = set()\ns.update(ws)\ns.pop()",
        "s = set()\nfor w in ws:\n    s.add(w)\ns.pop()",
        "s = set()\nt = s\nt.add(1)\ns.remove(1)",
        "d = {k: 0 for k in ws}\nd['c']",
        "d = {k: 0 for k in ['a', 'b'] if other}\nd['z']",
        "d = dict(zip(['a', 'b'], ws))\nd['c']",
        "class A(other.Base):\n    pass\na = A()\na[0]\nlen(a)\nfor x in a:\n    pass",
        "class A:\n    def __getitem__(self, i):\n        return i\na = A()\na[0]\nfor x in a:\n    pass",
        "class A:\n    __len__ = other.size\na = A()\nlen(a)",
        "xs = other.items\nfor x in xs:\n    pass",
        "if other:\n    z = 1\nprint(z)",
        "for i in ws:\n    last = i\nprint(last)",
        "try:\n    z = int(other)\nexcept ValueError:\n    pass\nprint(z)",
        "def f():\n    global z\n    z = 1\nif False:\n    z = 0\nf()\nprint(z)",
        "n = 0\nwhile n < 3:\n    n += 1\n    res = n\nprint(res)",
        "s = sum([0.5, 0.5])\nx = 1 / (s - 1)",
        "xs = [1, 2, 3]\nys = xs[other:]\nys[2]",
        "xs = [1, 2, 3]\nys = xs[1:other.n]\nys[1]",
        "xs = [1, 2, 3]\nys = xs[::other]\nys[2]",
        "count = 0\ndef inc():\n    global count\n    count += 1\ninc()",
        "def f():\n    for i in range(2):\n        pass\n    return i\nf()",
        "def f():\n    try:\n        import nope\n    except ImportError:\n        nope = None\n    return nope\nf()",
        "def f():\n    if (n := 3) > 2:\n        pass\n    return n\nf()",
        "def f(xs):\n    for x in xs:\n        print(t)\n    t = 1\nf(ws)",
        "def outer():\n    x = 0\n    def inner():\n        nonlocal x\n        x += 1\n    inner()\nouter()",
        "rows = [[1, 2], [3]]\nseconds = [r[1] for r in rows if len(r) > 1]",
        "names = ['a', 'b']\ncounts = {'a': 1}\nvals = [counts.setdefault(n, 0) for n in names]",
        "names = ['a', 'b']\ncounts = {'a': 1}\nvals = [(counts.update({n: 0}), counts[n]) for n in names]",
    ] {
        silent(&run(&[history], target, ""));
    }
}

/// Tensors autograd may not track, and shapes not known, stay silent for `torch-numpy-grad` and
/// `torch-backward`.
#[test]
fn torch_grad_uncertain_stays_silent() {
    let h = "import torch\nimport torch.nn as nn";
    // Grad mode turned off by a decorator of the notebook's function, or in an earlier cell.
    silent(&run(
        &[
            h,
            "model = nn.Linear(3, 1)\n\n@torch.no_grad()\ndef predict(x):\n    return model(x)",
        ],
        "predict(torch.ones(2, 3)).numpy()",
        "",
    ));
    silent(&run(
        &[h, "torch.set_grad_enabled(False)"],
        "nn.Linear(3, 1)(torch.ones(2, 3)).numpy()",
        "",
    ));
    // Parameters frozen with requires_grad_ or a stored requires_grad.
    silent(&run(
        &[h],
        "model = nn.Linear(3, 1)\nmodel.requires_grad_(False)\nmodel(torch.ones(2, 3)).numpy()",
        "",
    ));
    silent(&run(
        &[h],
        "net = nn.Sequential(nn.Linear(3, 4), nn.ReLU())\nnet[0].weight.requires_grad = False\nnet[0].bias.requires_grad = False\nnet(torch.ones(2, 3)).numpy()",
        "",
    ));
    // Weights frozen in the class's own `__init__`.
    silent(&run(
        &[h, "class Frozen(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(3, 1)\n        self.fc.weight.requires_grad = False\n        self.fc.bias.requires_grad = False\n\n    def forward(self, x):\n        return self.fc(x)"],
        "Frozen()(torch.ones(2, 3)).numpy()",
        "",
    ));
    // A module of unknown layers, a tensor of unknown origin, an integer copy.
    silent(&run(
        &[h, "import torchvision"],
        "m = nn.Sequential(torchvision.ops.MLP(3, [4]))\nm(torch.ones(2, 3)).numpy()",
        "",
    ));
    silent(&run(&[h], "y = torch.load('t.pt')\ny.numpy()", ""));
    silent(&run(
        &[h],
        "w = torch.randn(3, requires_grad=True)\n(w > 0).numpy()\n(w // 2).numpy()\nw.long().numpy()",
        "",
    ));
    // A notebook forward that may detach its output.
    silent(&run(
        &[h, "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(3, 1)\n\n    def forward(self, x):\n        return self.fc(x).detach()"],
        "Net()(torch.ones(2, 3)).numpy()",
        "",
    ));
    // backward of an output of unknown shape, or of one element, or given a gradient.
    silent(&run(
        &[h],
        "model = nn.Linear(3, 1)\ndef go(x):\n    model(x).backward()",
        "",
    ));
    silent(&run(
        &[h, "x = torch.load('x.pt')"],
        "nn.Linear(3, 1)(x).backward()",
        "",
    ));
    silent(&run(
        &[h],
        "w = torch.randn(1, requires_grad=True)\n(w * 3).backward()",
        "",
    ));
    silent(&run(
        &[h],
        "w = torch.randn(3, requires_grad=True)\n(w * 3).backward(torch.ones(3))",
        "",
    ));
    // A recurrent layer's output is a tuple, not a tensor; an Embedding of indices of an unknown
    // dtype.
    silent(&run(
        &[h],
        "lstm = nn.LSTM(4, 8)\nout, (h, c) = lstm(torch.randn(5, 2, 4))\nout.numpy()",
        "",
    ));
    silent(&run(
        &[h, "ids = torch.load('ids.pt')"],
        "nn.Embedding(10, 3)(ids)",
        "",
    ));
    // torch.tensor of rows nesting differently, or an empty first row (torch takes that).
    silent(&run(&[h], "t = torch.tensor([[], [1]])", ""));
    // A tensor whose requires_grad is not a literal, or one an earlier cell may have switched.
    silent(&run(
        &[h],
        "flag = input()\nx = torch.tensor([1.0], requires_grad=flag == 'y')\nx.backward()",
        "",
    ));
    silent(&run(
        &[h, "x = torch.tensor([1.0])", "x.requires_grad = True"],
        "x.backward()",
        "",
    ));
    // A float literal is of the default dtype, which an earlier cell made float64.
    silent(&run(
        &[h, "torch.set_default_dtype(torch.float64)"],
        "a = torch.tensor([[1.0]])\nb = torch.ones(1, 1, dtype=torch.float64)\nc = a @ b",
        "",
    ));
    // TensorDataset of tensors of an unknown length.
    silent(&run(
        &[h, "y = torch.load('y.pt')"],
        "ds = torch.utils.data.TensorDataset(torch.zeros(3, 2), y)",
        "",
    ));
}

#[test]
fn instances_of_classes_given_special_methods_later_stay_silent() {
    let class = "class Box:\n    def __init__(self):\n        self.items = [1, 2]\n\nb = Box()";
    for (earlier, target) in [
        (
            "Box.__getitem__ = lambda self, i: self.items[i]",
            "first = b[0]",
        ),
        ("setattr(Box, '__len__', lambda self: 2)", "n = len(b)"),
        (
            "Box.__iter__ = lambda self: iter(self.items)",
            "for v in b:\n    print(v)",
        ),
    ] {
        silent(&run(&[class, earlier], target, ""));
    }
    // Without them, each raises TypeError.
    assert!(!run(&[class], "first = b[0]", "").is_empty());
    assert!(!run(&[class], "n = len(b)", "").is_empty());
}

#[test]
fn keras_input_shapes_given_as_numbers_where_keras_reads_no_shape() {
    let imports = "import keras\nfrom keras import layers\nfrom data import width";
    for target in [
        // `input_shape=` of a layer that is not the first one is ignored.
        "m = keras.Sequential([layers.Dense(8, input_shape=(4,)), layers.Dense(2, input_shape=4)])",
        "x = keras.Input((4,))\ny = layers.Dense(2, input_shape=4)(x)",
        "m = keras.Sequential()\nm.add(keras.Input((4,)))\nm.add(layers.Dense(2, input_shape=4))",
        // Unknown values, and shapes that are tuples or lists.
        "m = keras.Sequential([layers.Dense(8, input_shape=width())])",
        "m = keras.Sequential([layers.Dense(8, input_shape=[4])])",
        "x = keras.Input(shape=(4,))",
    ] {
        silent(&run(&[imports], target, ""));
    }
    // Keras 2 builds its input layers otherwise: silent; Keras 3: certain.
    let keras = |version: &str| module_summary("keras", "keras", version);
    let target = "x = keras.Input(4)";
    silent(&run(&[imports], target, &keras("2.15.0")));
    let d = run(&[imports], target, &keras("3.15.1"));
    fires(
        &d,
        target,
        "keras-input-mismatch",
        "4",
        &["Cannot convert '4'"],
    );
    assert!(d.iter().all(|d| !d.message.contains("likely")), "{d:?}");
}

#[test]
fn keras_keywords_of_earlier_releases_need_the_kernels_keras() {
    let history = "import numpy as np\nimport keras\nfrom keras import layers\nX = np.zeros((8, 4))\ny = np.zeros(8)\nmodel = keras.Sequential([keras.Input((4,)), layers.Dense(1)])\nmodel.compile(optimizer='adam', loss='mse')";
    let keras = |version: &str| module_summary("keras", "keras", version);
    for (target, keyword) in [
        ("model.fit(X, y, nb_epoch=2)", "nb_epoch=2"),
        ("opt = keras.optimizers.Adam(lr=0.01)", "lr=0.01"),
        ("d = layers.Dropout(p=0.5)", "p=0.5"),
    ] {
        // The notebook may be written for Keras 2, and the kernel may run it.
        silent(&run(&[history], target, ""));
        silent(&run(&[history], target, &keras("2.15.0")));
        fires(
            &run(&[history], target, &keras("3.15.1")),
            target,
            "bad-arguments",
            keyword,
            &["earlier keras releases"],
        );
    }
    // Layers outside the table, and keywords every release takes.
    for target in [
        "c = layers.Conv1DTranspose(4, 3, not_a_keyword=1)",
        "d = layers.Dense(3, input_dim=4, name='d', dtype='float32')",
        "e = layers.Embedding(10, 4, input_length=5)",
        "opt = keras.optimizers.Adam(decay=1e-6)",
    ] {
        silent(&run(&[history], target, &keras("3.15.1")));
    }
}

#[test]
fn torch_layers_of_earlier_cells_stay_silent_once_they_may_have_changed() {
    let built = "import torch\nimport torch.nn as nn\nlin = nn.Linear(4, 2)\nseq = nn.Sequential(nn.Linear(10, 5), nn.ReLU())";
    for (changed, target) in [
        ("seq[0] = nn.Linear(8, 5)", "y = seq(torch.randn(3, 8))"),
        ("seq.append(nn.Linear(5, 5))", "y = seq(torch.randn(3, 8))"),
        (
            "lin.weight = nn.Parameter(torch.randn(2, 5))",
            "z = lin(torch.randn(3, 5))",
        ),
        // The same object through another name or container.
        (
            "alias = lin\nalias.weight = nn.Parameter(torch.randn(2, 5))",
            "z = lin(torch.randn(3, 5))",
        ),
        (
            "big = nn.ModuleList([lin])\nbig[0].weight = nn.Parameter(torch.randn(2, 5))",
            "z = lin(torch.randn(3, 5))",
        ),
        (
            "for m in seq:\n    m.in_features = 8",
            "y = seq(torch.randn(3, 8))",
        ),
        ("seq.double()", "y = seq(torch.randn(3, 8))"),
        // A function of the notebook that mentions it may have run since.
        (
            "def widen():\n    global lin\n    lin = nn.Linear(5, 2)\nwiden()",
            "z = lin(torch.randn(3, 5))",
        ),
        (
            "setattr(seq, '0', nn.Linear(8, 5))",
            "y = seq(torch.randn(3, 8))",
        ),
    ] {
        silent(&run(&[built, changed], target, ""));
    }
}

#[test]
fn torch_backward_and_requires_grad_stay_silent_where_tracking_is_not_known() {
    let imports = "import torch\nfrom data import load";
    for target in [
        "t = torch.randn(3)\nt.requires_grad = True\nt.sum().backward()",
        "t = torch.randn(3)\nt.requires_grad_()\nt.sum().backward()",
        "t = load()\nt.sum().backward()",
        "t = torch.randn(3) * load()\nt.sum().backward()",
        "x = torch.tensor(load(), requires_grad=True)",
        "x = torch.tensor([1, 2], dtype=torch.float32, requires_grad=True)",
        "x = torch.ones(3, requires_grad=True)\nx.sum().backward()",
        "x = torch.tensor([1.5, 2.0], requires_grad=True)",
    ] {
        silent(&run(&[imports], target, ""));
    }
}

#[test]
fn keras_text_input_needs_a_model_that_takes_numbers() {
    let history = "import numpy as np\nimport pandas as pd\nimport keras\nfrom data import load\ndf = pd.DataFrame({'n': [1.0, 2.0], 'city': ['Oslo', 'Rome'], 'code': ['1.5', '2']})";
    for target in [
        // A first layer that takes strings.
        "m = keras.Sequential([keras.Input((1,), dtype='string'), keras.layers.StringLookup(vocabulary=['Oslo', 'Rome'])])\nm.predict(df[['city']])",
        // A model not known.
        "m = load()\nm.fit(df[['n', 'city']], np.zeros(2))",
        // Strings that convert to floats.
        "m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])\nm.compile(loss='mse')\nm.fit(df[['n', 'code']], np.zeros(2))",
    ] {
        silent(&run(&[history], target, ""));
    }
}

#[test]
fn keras_2_models_keep_their_own_methods() {
    // Keras 2.13 to 2.15 name their classes `keras.src.engine.`: not Keras 3's signatures.
    for type_name in [
        "keras.src.engine.sequential.Sequential",
        "keras.engine.sequential.Sequential",
    ] {
        let model = format!(r#""model": {{"type": "{type_name}", "kind": "keras_model"}}"#);
        silent(&run(
            &[],
            "model.compile(optimizer='adam', loss='mse', experimental_run_tf_function=False)",
            &model,
        ));
    }
}

/// Standard functions given values that may suit them, or values not known: silent.
#[test]
fn stdlib_values_not_certain_stay_silent() {
    let history = ["from helpers import rows, flag, sig"];
    for t in [
        "from datetime import datetime\nd = datetime.strptime('Jan 2020', '%b %Y')",
        "from datetime import datetime\nd = datetime.strptime(' 5/1/2020 7:05', '%d/%m/%Y %H:%M')",
        "from datetime import datetime\nd = datetime.strptime('2020-01-01T10:00', '%Y-%m-%dT%H:%M')",
        "from datetime import datetime\nd = datetime.strptime(rows, '%Y')",
        "class datetime:\n    def strptime(a, b):\n        return a\nd = datetime.strptime('x', '%Y')",
        "from datetime import date\nd = date(2020, 2, 29)",
        "from datetime import date\nd = date(2020, sig, 1)",
        "from datetime import datetime\nd = datetime(2020, 1, 31, 23, 59, 59, tzinfo=None)",
        "z = zip([1], [1, 2], strict=True)",
        "for a, b in zip([1, 2], [1], strict=True):\n    break",
        "pairs = list(zip([1, 2], [1]))",
        "pairs = list(zip([1, 2], rows, strict=True))",
        "d = dict(['ab', 'cd'])",
        "d = dict([rows, 5])",
        "d = dict([{'a': 1, 'b': 2}, {1, 2}])",
        "xs = []\nfor i in range(3):\n    if flag:\n        xs.append(i)\nxs[2]",
        "xs = []\nfor i in range(3):\n    xs.append(i)\n    if i == 1:\n        break\nxs[1]",
        "xs = []\nfor i in range(200):\n    xs.append(i)\nxs[150]",
        "xs = []\nfor i in range(rows):\n    xs.append(i)\nxs[3]",
        "xs = []\nfor i in range(5, 0, -2):\n    xs.append(i)\nxs[2]",
        "range = lambda n: [0] * 9\nxs = []\nfor i in range(3):\n    xs.append(i)\nxs[5]",
    ] {
        silent(&run(&history, t, ""));
    }
}

#[test]
fn keras_2_layers_refuse_a_misspelt_keyword_with_type_error() {
    let keras = |version: &str| module_summary("keras", "keras", version);
    let target = "d = keras.layers.Dense(4, activaton='relu')";
    for (version, error) in [("2.15.0", "TypeError"), ("3.10.0", "ValueError")] {
        let found = run(&["import keras"], target, &keras(version));
        fires(
            &found,
            target,
            "bad-arguments",
            "activaton='relu'",
            &[error],
        );
    }
}

#[test]
fn array_values_and_parameters_unknown_or_changed_stay_silent() {
    let h = "import numpy as np\nfrom keras.utils import to_categorical\nfrom sklearn.model_selection import KFold, RepeatedKFold\nfrom sklearn.preprocessing import PolynomialFeatures\nfrom sklearn.ensemble import RandomForestClassifier\nX = np.zeros((4, 2))\ny = [0, 1, 0, 1]";
    // Values the code does not fix.
    let unknown = "import random\nflag = random.random() > 0.5\nn = random.randint(0, 5)\nk = random.randint(0, 5)\nweights = [random.random() for _ in range(3)]\ndef reset(v):\n    v[0] = 0";
    for target in [
        // The index array changed in place, through itself, a view or numpy: values unknown.
        "idx = np.array([5])\nidx[0] = 1\na = np.zeros(5)\na[idx]",
        "idx = np.array([5])\nidx -= 1\na = np.zeros(5)\na[idx]",
        "idx = np.array([5])\nnp.put(idx, 0, 1)\na = np.zeros(5)\na[idx]",
        "idx = np.array([5])\nview = idx[:]\nview[0] = 0\na = np.zeros(5)\na[idx]",
        "idx = np.array([5])\nidx.fill(0)\na = np.zeros(5)\na[idx]",
        "idx = np.array([5])\nreset(idx)\na = np.zeros(5)\na[idx]",
        // One branch or the other; arithmetic and parts of an array are not followed.
        "idx = np.array([5]) if flag else np.array([1])\na = np.zeros(5)\na[idx]",
        "idx = np.arange(10) // 2\na = np.zeros(5)\na[idx]",
        "y3 = np.array([0, 1, 5])[:2]\nto_categorical(y3, 3)",
        // Without num_classes, to_categorical counts the classes itself.
        "to_categorical(np.array([0, 5]))",
        // Probabilities summing to 1 up to rounding.
        "np.random.choice(3, p=[1 / 3, 1 / 3, 1 / 3])",
        "np.random.choice(3, p=weights)",
        // Parameters are checked by fit, which is not called; unknown values.
        "poly = PolynomialFeatures(degree=-1)",
        "RandomForestClassifier(n_estimators=n).fit(X, y)",
        "cv = KFold(n_splits=k)",
        // RepeatedKFold makes its KFold when it splits.
        "cv = RepeatedKFold(n_splits=1)",
        // Forests take one class; a label inside y_true's range may be present.
        "RandomForestClassifier().fit(X, [1, 1, 1, 1])",
        "from sklearn.metrics import confusion_matrix\nconfusion_matrix(np.arange(5), np.arange(5), labels=[3, 9])",
        "from sklearn.metrics import accuracy_score\naccuracy_score(weights, ['a', 'b', 'c'])",
        // An initial value or an axis: no reduction of nothing.
        "np.max(np.zeros((0, 3)), initial=0.0)",
        "np.max(np.zeros((0, 3)), axis=1)",
        // The diagonal of np.eye may be negative; a list grown in a loop may not be empty.
        "np.eye(3, 3, -1)",
        "xs = []\nfor v in y:\n    xs.append(v)\nnp.max(xs)",
        "xs = []\nif flag:\n    xs.append(1)\nnp.max(xs)",
        "preds = np.array([])\nfor batch in range(3):\n    preds = np.concatenate([preds, np.ones(2)])\nnp.max(preds)",
        // The encoder's classes set by hand.
        "from sklearn.preprocessing import LabelEncoder\nle = LabelEncoder()\nle.fit(['a', 'b'])\nle.classes_ = np.array(['a', 'b', 'c'])\nle.transform(['c'])",
        "from sklearn.preprocessing import LabelEncoder\nle = LabelEncoder().fit([1, 2])\nle.transform([3])",
        // Categories given, or unknown ones ignored: no unseen category raises.
        "from sklearn.preprocessing import OneHotEncoder\nenc = OneHotEncoder(categories=[['a', 'b', 'c']])\nenc.fit([['a'], ['b']])\nenc.transform([['c']])",
        "from sklearn.preprocessing import OrdinalEncoder\nenc = OrdinalEncoder(handle_unknown='use_encoded_value', unknown_value=-1)\nenc.fit([['a'], ['b']])\nenc.transform([['c']])",
    ] {
        silent(&run(&[h, unknown], target, ""));
    }
    // The kernel read a sample of the labels: their range is not the array's.
    let sampled = r#""y": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [200000]}, "R": {"dtype": "int64"}, "V": {"range": [0, 3]}, "sampled": true}"#;
    silent(&run(
        &["import numpy as np\nfrom keras.utils import to_categorical"],
        "to_categorical(y, num_classes=3)",
        sampled,
    ));
    assert!(!run(
        &["import numpy as np\nfrom keras.utils import to_categorical"],
        "to_categorical(y, num_classes=3)",
        &sampled.replace(", \"sampled\": true", ""),
    )
    .is_empty());
}

#[test]
fn frame_reductions_of_text_depend_on_the_kernels_pandas() {
    let t = "df = pd.DataFrame({'a': [1, 2], 'b': ['x', 'y']})\nm = df.mean()";
    // pandas 1 left text columns out of frame-wide reductions.
    silent(&run(&[IMPORTS], t, &pandas_module("1.5.3")));
    let d = run(&[IMPORTS], t, "");
    fires(
        &d,
        t,
        "value-conversion",
        "df.mean()",
        &["column 'b'", "likely", "pandas 1 left text columns out"],
    );
    assert_eq!(d[0].severity, cellguard::diagnostic::Severity::Warning);
    let d = run(&[IMPORTS], t, &pandas_module("2.2.3"));
    assert_eq!(d[0].severity, cellguard::diagnostic::Severity::Error);
}

#[test]
fn frame_dtypes_and_lengths_not_known_stay_silent() {
    let kernel_object_column = r#""df": {"type": "pandas.DataFrame", "kind": "dataframe", "S": {"shape": [2, 2]}, "R": {"columns": ["a", "b"], "columns_complete": true, "dtypes": {"a": "int64", "b": "object"}, "index": "RangeIndex"}}"#;
    let cells = [
        // Columns of unknown dtype.
        ("df = pd.read_csv('f.csv')\ndf.mean()", ""),
        // An object column may hold numbers.
        ("m = df.mean()\nc = df.corr()", kernel_object_column),
        // Numbers written as text: pandas 2's object column may convert them.
        ("df = pd.DataFrame({'a': [1, 2], 'b': ['1', '2.5']})\ndf.mean()", ""),
        // The text column converted, replaced or dropped first.
        ("df = pd.DataFrame({'a': [1, 2], 'b': ['1', '2']})\ndf['b'] = pd.to_numeric(df['b'])\ndf.mean()", ""),
        ("df = pd.DataFrame({'a': [1, 2], 'b': ['x', 'y']})\ndf['b'] = df['b'].map({'x': 1, 'y': 2})\ndf.mean()", ""),
        ("df = pd.DataFrame({'a': [1, 2], 'b': ['x', 'y']})\ndf.replace({'x': 1, 'y': 2}, inplace=True)\ndf.mean()", ""),
        ("df = pd.DataFrame({'a': [1, 2], 'b': ['x', 'y']})\ndf.b = [1, 2]\ndf.std()", ""),
        ("df = pd.DataFrame({'a': [1, 2], 'b': ['x', 'y']})\nd = pd.get_dummies(df)\nd.mean()", ""),
        ("df = pd.DataFrame({'a': [1, 2], 'b': ['x', 'y']})\ndf.set_index('b').mean()", ""),
        ("df = pd.DataFrame({'a': [1, 2], 'b': ['x', 'y']})\ndf.mean(numeric_only=True)\ndf.sum()\ndf.max()", ""),
        // A frame of unknown length, or with no columns (it takes any index).
        ("df = pd.read_csv('f.csv')\ndf.index = ['x', 'y']", ""),
        ("df = pd.DataFrame()\ndf.index = [1, 2, 3]", ""),
        // Scalars broadcast, dicts and Series align, index= of unknown length.
        ("s = pd.Series(5, index=[1, 2, 3])\nt = pd.Series({'a': 1}, index=['a', 'b'])\nu = pd.Series([1, 2], index=idx)", ""),
        ("t = pd.DataFrame({'a': 1, 'b': 2}, index=[0, 1, 2])\nu = pd.DataFrame([[1, 2], [3]], columns=['a'])", ""),
        ("t = pd.DataFrame(rows, columns=['a'])\nu = pd.DataFrame(np.zeros((2, 2)), index=idx, columns=['a'])", ""),
        // Text that parses, NaN filled first.
        ("df = pd.DataFrame({'a': [1, 2], 'b': ['1.5', '2']})\nf = df.astype(float)", ""),
        ("s = pd.Series([1, None])\nn = s.fillna(0).astype(int)\nm = s.dropna().astype(int)", ""),
        // Lists that may have been filled: by a loop of unknown length, a condition, a
        // function, a generator, or a bound method kept under another name.
        ("frames = []\nfor f in idx:\n    frames.append(pd.read_csv(f))\nall = pd.concat(frames)", ""),
        ("frames = []\nif n:\n    frames.append(pd.DataFrame())\nall = pd.concat(frames)", ""),
        ("frames = []\ndef add():\n    frames.append(pd.DataFrame())\nadd()\nall = pd.concat(frames)", ""),
        ("frames = []\nframes.extend(pd.read_csv(f) for f in idx)\nall = pd.concat(frames)", ""),
        ("frames = []\nadd = frames.append\nadd(pd.DataFrame())\nall = pd.concat(frames)\nfirst = frames[0]", ""),
    ];
    // Values of unknown length and truth.
    let unknown = "import os\nn = len(os.listdir('.'))\nidx = os.listdir('.')\nrows = [[f] for f in os.listdir('.')]";
    for (cell, objects) in cells {
        let found = run(&[IMPORTS, unknown], cell, objects);
        assert!(found.is_empty(), "{cell}\n{found:#?}");
    }
}

#[test]
fn dt_and_cat_accessors_of_object_columns() {
    let objects = r#""df": {"type": "pandas.DataFrame", "kind": "dataframe", "S": {"shape": [2, 2]}, "R": {"columns": ["Date", "n"], "columns_complete": true, "dtypes": {"Date": "object", "n": "int64"}, "index": "RangeIndex"}}"#;
    let t = "years = df['Date'].dt.year";
    fires(
        &run(&[IMPORTS], t, objects),
        t,
        "missing-attribute",
        "df['Date'].dt",
        &[
            "object",
            "Can only use .dt accessor with datetimelike values",
            "pd.to_datetime",
        ],
    );
    let t = "codes = df.Date.cat.codes";
    fires(
        &run(&[IMPORTS], t, objects),
        t,
        "missing-attribute",
        "df.Date.cat",
        &["Can only use .cat accessor"],
    );
    for twin in [
        "df['Date'] = pd.to_datetime(df['Date'])\nyears = df['Date'].dt.year",
        "years = pd.to_datetime(df['Date']).dt.year",
        "codes = df['Date'].astype('category').cat.codes",
        // `.str` looks at the values: an object column may hold text.
        "first = df['Date'].str[:4]",
    ] {
        silent(&run(&[IMPORTS], twin, objects));
    }
}

#[test]
fn keras_layer_arguments_by_the_kernels_keras() {
    let imports = "import keras\nfrom keras import layers\nfrom data import size";
    let keras = |version: &str| module_summary("keras", "keras", version);
    let target = "d = layers.Dense(0)";
    silent(&run(&[imports], target, &keras("2.15.0")));
    let found = run(&[imports], target, &keras("3.15.1"));
    fires(&found, target, "keras-layer-argument", "0", &["`units`"]);
    assert!(
        found.iter().all(|d| !d.message.contains("likely")),
        "{found:?}"
    );
    for target in [
        "d = layers.Dropout(1)",
        "d = layers.Dropout(0)",
        "d = layers.Dense(size())",
        "c = layers.Conv2D(8, (3, 3))",
        "r = layers.Reshape((0,))",
    ] {
        silent(&run(&[imports], target, &keras("3.15.1")));
    }
}

#[test]
fn numpy_text_and_zero_dimensional_shapes_not_known_stay_silent() {
    let object_array = r#""a": {"type": "numpy.ndarray", "kind": "ndarray", "S": {"shape": [2]}, "R": {"dtype": "object"}}"#;
    let cells = [
        // Text with text, and equality, work; sorting and counting text too.
        ("t = np.array(['a', 'b'])\nu = t + 'x'\nv = t == 1\nw = np.sort(t)\nx = np.unique(t)", ""),
        // An object array may hold numbers.
        ("b = a + 1\nm = a.mean()", object_array),
        // A list of numbers, or one whose elements are not known.
        ("m = np.mean([1, 2.5, True])\nn = np.mean(rows)\no = np.log([float(r) for r in rows])", ""),
        // Arrays of unknown dtype, and text converted first.
        ("b = np.asarray(rows) - 1\nt = np.array(['1', '2']).astype(float)\nc = t * 2\nd = t.sum()", ""),
        // Concatenating arrays, lists of unknown parts, or everything flattened.
        ("c = np.concatenate([np.zeros(2), [1.0]])\nd = np.concatenate(rows)\ne = np.concatenate([1, 2], axis=None)", ""),
        ("c = np.concatenate(np.zeros((2, 3)))\nd = np.concatenate([x for x in rows])", ""),
        // Finite floats, and NaN that round keeps a float with ndigits.
        ("n = int(float('2.5'))\nm = round(np.nan, 2)\nk = int(float(rows[0]))", ""),
    ];
    let unknown = "import os\nrows = os.listdir('.')";
    for (cell, objects) in cells {
        let found = run(&[IMPORTS, unknown], cell, objects);
        assert!(found.is_empty(), "{cell}\n{found:#?}");
    }
}

#[test]
fn zero_dimensional_values_and_torch_indices_not_known_stay_silent() {
    let history = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\nimport numpy as np\nimport os\nrows = os.listdir('.')";
    let cells = [
        // A 0-d value indexed by `()`, `...` or `None`, read with `.item()`, converted.
        "s = torch.ones(3).sum()\na = s[()]\nb = s[None]\nc = s.item()\nd = float(s)\ne = s[...]",
        "m = np.ones(3).mean()\na = m[()]\nb = float(m)\nc = [1, 2][np.argmax([0.1, 0.9])]",
        // Reductions along an axis, or keeping it, are not 0-d.
        "x = torch.ones(2, 3)\nn = len(x.sum(0))\nfor v in x.mean(dim=1):\n    pass",
        "a = np.ones((2, 3))\nn = len(a.sum(axis=0))\nk = len(a.sum(keepdims=True))",
        // Tensors of one element become numbers; numpy arrays are made tensors.
        "parts = [torch.ones(1), torch.tensor(2.0)]\nt = torch.tensor(parts)\nu = torch.from_numpy(np.ones(3))",
        // A loss that may ignore the index, indices of unknown values, more classes.
        "loss = nn.CrossEntropyLoss(ignore_index=3)(torch.randn(2, 3), torch.tensor([0, 3]))",
        "loss = F.cross_entropy(torch.randn(2, 3), torch.tensor([0, 3]), ignore_index=3)",
        "y = torch.tensor([int(r) for r in rows])\nloss = F.cross_entropy(torch.randn(len(rows), 3), y)",
        "emb = nn.Embedding(len(rows), 4)\nv = emb(torch.tensor([0, 7]))",
    ];
    for cell in cells {
        let found = run(&[history], cell, "");
        assert!(found.is_empty(), "{cell}\n{found:#?}");
    }
}

#[test]
fn keras_utilities_given_what_they_take_stay_silent() {
    let history = "import numpy as np\nimport keras\nfrom keras import layers\nfrom keras.utils import pad_sequences, to_categorical\nimport os\nrows = os.listdir('.')";
    let cells = [
        // Lists of sequences, of arrays, or of unknown elements.
        "a = pad_sequences([[1, 2], [3]])\nb = pad_sequences([np.array([1, 2])])\nc = pad_sequences(rows)",
        "d = pad_sequences(np.array([[1, 2], [3, 4]]))\ne = pad_sequences([list(r) for r in rows])",
        // Labels written as integer text, or of unknown values.
        "y = to_categorical(['0', '1'])\nz = to_categorical(rows)\nw = to_categorical(np.array([0, 2]), 3)",
        // Layers made of their classes, or a class of the notebook.
        "class Block(layers.Layer):\n    pass\nm = keras.Sequential()\nm.add(layers.Dense(3))\nm.add(Block())\nm.add(layers.Dropout(0.2))",
        // A model whose first layer takes text.
        "m = keras.Sequential([keras.Input((1,), dtype='string'), layers.StringLookup(vocabulary=['a'])])\np = m.predict(np.array([['a']]))",
    ];
    for cell in cells {
        let found = run(&[history], cell, "");
        assert!(found.is_empty(), "{cell}\n{found:#?}");
    }
}

/// What runs, or is not known to raise, stays silent: frames that take any length (empty ones),
/// values that align (a Series), axes given the pandas 1 way, keys of a MultiIndex, windows that
/// count, empty Series, text bounds, `errors='coerce'`, texts pandas reads its own way, a kernel
/// Series of `object` values (numbers may hide there) and `interpolate` under pandas 2 (which
/// only warned).
#[test]
fn pandas_inserts_axes_numeric_work_on_text_and_dates_that_run_are_silent() {
    let df = "df = pd.DataFrame({'a': [1, 2, 3], 'b': [4.0, 5.0, 6.0]})";
    for target in [
        "pd.DataFrame().insert(0, 'a', [1, 2, 3])",
        "df.insert(0, 'c', pd.Series([1, 2]))",
        "df.insert(0, 'a', 0, allow_duplicates=True)",
        "df.assign(c=pd.Series([1, 2]))",
        "pd.DataFrame().assign(c=[1, 2, 3])",
        "pd.DataFrame().set_axis(['x', 'y'])",
        "df.set_axis(['x', 'y', 'z'], 1)",
        "m = pd.DataFrame({'v': [1, 2]}, index=pd.MultiIndex.from_tuples([('a', 'x'), ('b', 'y')]))\nm.xs('x', level=1)\nm.xs(('a', 'x'))",
        "s = pd.Series(['b', 'a', 'c'])\ns.rolling(2).count()\ns.clip('a', 'b')",
        "pd.Series([], dtype=str).rolling(2).mean()",
        "pd.Series(['1', '2.5', '3']).rolling(2).mean()",
        "pd.Series([3, 1, 2]).nlargest(2)",
        "pd.to_datetime('2020-13-45', errors='coerce')",
        "pd.to_datetime('2020-01-05', format='mixed')",
        "pd.to_datetime(['NaT', 'now', ''], format='%d/%m/%Y')",
        "pd.to_datetime('2020-01-05 10:00', format='%Y-%m-%d', exact=False)",
        "fmt = input()\npd.to_datetime('13/13/2020', format=fmt)",
        "pd.to_datetime('0000-01-01')\npd.to_datetime('0000-01-01', format='%Y-%m-%d')\npd.to_datetime('2020-1-5', format='%Y-%m-%d')",
        "pd.to_numeric('')\npd.to_numeric([' 12 ', '', '1e3'])\npd.to_numeric('abc', errors='coerce')",
        "d = pd.DataFrame({'v': [1, 2]}, index=['x', 'x'])\nd.reindex(['x', 'x'])\nd.reindex(columns=['v', 'w'])",
        "d = pd.DataFrame({'v': [1, 2, 3]}, index=['x', 'x', 'y'])\nd[d.v > 1].reindex(['x', 'y'])",
        "d = pd.DataFrame({'k': ['a', 'a', 'b'], 'c': ['x', 'y', 'y'], 'v': [1, 2, 3]})\nd.pivot(index='k', columns='c', values='v')",
    ] {
        silent(&run(&[IMPORTS, df], target, ""));
    }
    let kernel = r#""s": {"type": "pandas.Series", "kind": "series", "S": {"shape": [2]}, "R": {"dtype": "object"}},
        "t": {"type": "pandas.Series", "kind": "series", "S": {"shape": [2]}, "R": {"dtype": "str"}},
        "pd": {"type": "module", "kind": "module", "R": {"module": "pandas", "version": "2.2.3"}}"#;
    for target in [
        "np.log(s)",
        "s.abs()",
        "s.rolling(2).mean()",
        "t.interpolate()",
        "t.abs()",
    ] {
        silent(&run(&[IMPORTS], target, kernel));
    }
}

#[test]
fn json_of_what_it_serializes_stays_silent() {
    let history =
        "import json\nimport numpy as np\nimport pandas as pd\nimport os\nrows = os.listdir('.')";
    let cells = [
        // Lists, numbers, a whole mean (np.float64 is a float), converted arrays.
        "a = np.arange(3)\nt = json.dumps({'a': a.tolist(), 'm': a.mean(), 'n': len(a)})",
        // A default or an encoder class converts what JSON lacks.
        "a = np.arange(3)\nt = json.dumps({'a': a}, default=str)\nu = json.dumps(a, cls=json.JSONEncoder)",
        // Values not known, keyword arguments unpacked.
        "t = json.dumps({'rows': rows})\nopts = {'default': str}\nu = json.dumps(np.arange(2), **opts)",
    ];
    for cell in cells {
        let found = run(&[history], cell, "");
        assert!(found.is_empty(), "{cell}\n{found:#?}");
    }
}

#[test]
fn text_methods_under_the_str_accessor_stay_silent() {
    let cell = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/text_methods_that_run.py"
    ))
    .unwrap();
    silent(&run(&[], &cell, ""));
}

#[test]
fn builtins_given_their_keywords_stay_silent() {
    let cells = [
        "xs = sorted([3, 1], key=abs, reverse=True)\nprint('a', 'b', sep=', ', end='', flush=True)",
        "f = open('x', 'w', encoding='utf-8', newline='')\nr = round(2.5, ndigits=1)\ns = sum([1, 2], start=0)",
        "e = list(enumerate('ab', start=1))\np = pow(2, 3, mod=5)",
        // A builtin the notebook shadows takes what its own definition takes.
        "def sorted(xs, reversed=False):\n    return xs\nys = sorted([1], reversed=True)",
    ];
    for cell in cells {
        let found = run(&[], cell, "");
        assert!(found.is_empty(), "{cell}\n{found:#?}");
    }
}

#[test]
fn pandas_options_pandas_takes_stay_silent() {
    let df = "df = pd.DataFrame({'a': [1, 2, 2], 'b': [3.0, None, 4.0]})\nimport os\nopt = os.environ['X']";
    for target in [
        "m = df.merge(df, on='a', how='left_anti')\nj = df.join(df[['b']], how='cross', rsuffix='r')",
        "d = df.dropna(how='any')\ne = df.drop_duplicates(keep='last')\nf = df.duplicated(keep=False)",
        "n = pd.to_numeric(df['b'], errors='ignore')\nr = df.rank(method='dense')\nc = pd.concat([df], join='inner')",
        "s = df.sum(axis='rows')\nt = df['a'].sum(axis='index')\nu = df.apply(len, axis='columns')\nv = df.mean(axis=-1 + 1)",
        // Options not known, a method without `axis`, a frame the notebook extends.
        "m = df.merge(df, on='a', how=opt)\nd = df.dropna(how=opt)\ns = df.sum(axis=opt)",
        "g = df.groupby('a').sum()\npd.DataFrame.total = lambda self, axis='row': 0\nt = df.total(axis='row')",
    ] {
        silent(&run(&[IMPORTS, df], target, ""));
    }
}

#[test]
fn sklearn_string_options_of_other_releases_are_not_certain() {
    let imports = "import numpy as np\nimport sklearn\nfrom sklearn.ensemble import RandomForestRegressor\nX = np.zeros((4, 2))\ny = np.zeros(4)";
    let sklearn = |version: &str| module_summary("sklearn", "sklearn", version);
    // 'mse' was the squared error's name before scikit-learn 1.0.
    let target = "RandomForestRegressor(criterion='mse').fit(X, y)";
    silent(&run(&[imports], target, &sklearn("0.24.2")));
    let certain = run(&[imports], target, &sklearn("1.9.1"));
    assert_eq!(certain[0].severity, cellguard::diagnostic::Severity::Error);
    let unknown = run(&[imports], target, "");
    assert_eq!(unknown[0].code, "sklearn-bad-params");
    assert_eq!(
        unknown[0].severity,
        cellguard::diagnostic::Severity::Warning
    );
    // Options the estimator takes, and values not known.
    silent(&run(
        &[imports],
        "import os\nc = os.environ['C']\nRandomForestRegressor(criterion='absolute_error').fit(X, y)\nRandomForestRegressor(criterion=c, max_features='sqrt').fit(X, y)",
        "",
    ));
}
