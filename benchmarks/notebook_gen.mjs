// Generates a realistic notebook of pandas / scikit-learn code: `cells` code cells of `lines` lines,
// deterministic for a seed, so benchmark figures compare across runs.

const TEMPLATES = [
  i => [
    `df_${i} = pd.read_csv("data/part_${i}.csv", sep=",", parse_dates=["date"])`,
    `df_${i} = df_${i}.drop(columns=["Unnamed: 0"], errors="ignore")`,
    `df_${i}["Age"] = df_${i}["Age"].fillna(df_${i}["Age"].median())`,
    `df_${i}["Fare_log"] = np.log1p(df_${i}["Fare"])`,
    `summary_${i} = df_${i}.groupby("Pclass").agg({"Fare": "mean", "Age": ["min", "max"]})`
  ],
  i => [
    `features_${i} = ["Age", "Fare", "SibSp", "Parch", "Pclass"]`,
    `X_${i} = df_${i % 7}[features_${i}].values`,
    `y_${i} = df_${i % 7}["Survived"].astype(int)`,
    `X_train_${i}, X_test_${i}, y_train_${i}, y_test_${i} = train_test_split(X_${i}, y_${i}, test_size=0.2, random_state=${i})`,
    `scaler_${i} = StandardScaler().fit(X_train_${i})`
  ],
  i => [
    `model_${i} = RandomForestClassifier(n_estimators=${50 + i}, max_depth=8, random_state=0)`,
    `model_${i}.fit(scaler_${i % 11}.transform(X_train_${i % 11}), y_train_${i % 11})`,
    `pred_${i} = model_${i}.predict(scaler_${i % 11}.transform(X_test_${i % 11}))`,
    `print(f"accuracy {accuracy_score(y_test_${i % 11}, pred_${i}):.3f}")`,
    `report_${i} = {name: value for name, value in zip(features_${i % 11}, model_${i}.feature_importances_)}`
  ],
  i => [
    `def clean_${i}(frame, cols=("Name", "Ticket")):`,
    `    out = frame.copy()`,
    `    for col in cols:`,
    `        out[col] = out[col].str.strip().str.lower()`,
    `    return out[[c for c in out.columns if c not in ("Cabin",)]]`
  ]
];

export function generateCells(cells = 300, lines = 20) {
  const sources = [];
  for (let i = 0; i < cells; i++) {
    const body = [];
    for (let t = 0; body.length < lines; t++) {
      body.push(...TEMPLATES[(i + t) % TEMPLATES.length](i));
    }
    sources.push(body.slice(0, lines).join('\n'));
  }
  sources[0] = [
    'import numpy as np',
    'import pandas as pd',
    'from sklearn.model_selection import train_test_split',
    'from sklearn.preprocessing import StandardScaler',
    'from sklearn.ensemble import RandomForestClassifier',
    'from sklearn.metrics import accuracy_score',
    ...sources[0].split('\n').slice(6)
  ].join('\n');
  return sources;
}
