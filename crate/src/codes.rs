//! The registry of diagnostic codes, as Ruff keeps its rules: one enum is the only place a code,
//! its default severity and its documentation are written. Diagnostics carry a `Rule`; it crosses
//! to JSON, the CLI and the extension as its kebab-case code. The extension's `Code` type comes
//! with the WebAssembly package's types (`TYPESCRIPT_CODE`); the README's rule table and the
//! settings schema's list of codes are generated from here (`cellguard rules --generate`), and a
//! test checks the committed files are up to date.

use std::fmt;

use serde::Serialize;

use crate::diagnostic::Severity;

/// The documentation of one rule, printed by `cellguard rules CODE`.
pub struct RuleDoc {
    /// The family the rule belongs to, for the README's table.
    pub group: &'static str,
    /// What it catches, in one line.
    pub catches: &'static str,
    /// Why the code crashes: the exception Python or the library raises.
    pub why: &'static str,
    /// A cell that crashes and that the rule flags.
    pub crashing: &'static str,
    /// Its twin that runs, where the rule stays silent.
    pub running: &'static str,
}

macro_rules! rules {
    ($(
        $(#[$attr:meta])*
        $variant:ident = $code:literal, $severity:ident, $group:literal {
            catches: $catches:expr,
            why: $why:expr,
            crashing: $crashing:expr,
            running: $running:expr $(,)?
        }
    )*) => {
        /// Every diagnostic code cellguard emits.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
        pub enum Rule {
            $($(#[$attr])* #[serde(rename = $code)] $variant,)*
        }

        /// The TypeScript type of codes, emitted with the WebAssembly package's types
        /// (crate/src/wasm.rs): the extension's diagnostics carry one of these.
        pub const TYPESCRIPT_CODE: &str = concat!(
            "/** Every diagnostic code (crate/src/codes.rs; `cellguard rules` explains them). */\n",
            "export type Code =",
            $(" | \"", $code, "\"",)*
            ";\n"
        );

        impl Rule {
            /// Every rule, in the registry's order.
            pub const ALL: &'static [Rule] = &[$(Rule::$variant),*];

            /// The stable kebab-case code (`undefined-name`).
            pub const fn code(self) -> &'static str {
                match self {
                    $(Rule::$variant => $code,)*
                }
            }

            pub const fn default_severity(self) -> Severity {
                match self {
                    $(Rule::$variant => Severity::$severity,)*
                }
            }

            pub fn doc(self) -> RuleDoc {
                match self {
                    $(Rule::$variant => RuleDoc {
                        group: $group,
                        catches: $catches,
                        why: $why,
                        crashing: $crashing,
                        running: $running,
                    },)*
                }
            }
        }
    };
}

rules! {
    SyntaxError = "syntax-error", Error, "Names and syntax" {
        catches: "a cell Python cannot parse",
        why: "the cell does not run at all: SyntaxError",
        crashing: "if x > 1\n    print(x)",
        running: "if x > 1:\n    print(x)",
    }
    UndefinedName = "undefined-name", Error, "Names and syntax" {
        catches: "names no cell that ran defines (\"run the cell above first\", or a close name: \"did you mean\"), or that the cell deleted or binds only in code that does not run (an `if` branch its known test skips, a loop over an empty list), also inside the notebook's functions a cell calls, and a function's local read before the function assigns it (`count += 1` without `global count`: UnboundLocalError)",
        why: "reading a name nothing bound: NameError",
        crashing: "print(total)",
        running: "total = 3\nprint(total)",
    }
    ModuleCalled = "module-called", Error, "Names and syntax" {
        catches: "a module called like a function (`import datetime`, `from PIL import Image`)",
        why: "modules are not callable: TypeError: 'module' object is not callable",
        crashing: "import tqdm\nfor i in tqdm(range(3)):\n    pass",
        running: "from tqdm import tqdm\nfor i in tqdm(range(3)):\n    pass",
    }
    MissingColumn = "missing-column", Error, "pandas" {
        catches: "columns absent from a known column list (also of what a groupby, its aggregations, `pivot_table`, `get_dummies` and `reset_index()` give), with \"did you mean\"; a column name dropped without `axis=1` (drop looks among the rows); names a ColumnTransformer selects that the frame it is fitted on lacks (ValueError); text row labels read with `.loc`/`.at`/`.xs` (or dropped) from a frame whose index is a RangeIndex, or that are not among its known labels (an index set from strings written in the cell, `index=[...]`, the kernel's list); integers read as row labels (`s[-1]`, `df['a'][5]`, `df.loc[len(df)]`, `df.at[3, 'a']`) past the rows of a frame or Series whose labels are its row numbers (built from literals, `reset_index(drop=True)`, `head`; read from a file, likely); columns a frame read from a file lost since (dropped, deleted, popped, renamed away); integers given as column labels (`df[0]`, `df[[0, 1]]`, `df.loc[:, 0]`) to a frame whose labels are all text (a CSV file's header row, literals, the kernel's list), with a fix to `.iloc`; the columns `value_counts()` gives as pandas 2.0 names them (`counts['index']` after `s.value_counts().reset_index()`, whose columns are the values' name and `'count'`: certain with the kernel's pandas 2 or later, likely without); sort, group and merge keys that are neither a column nor a level of that frame's own index",
        why: "selecting a label a frame lacks: KeyError",
        crashing: "df = pd.DataFrame({'Age': [1]})\ndf['age']",
        running: "df = pd.DataFrame({'Age': [1]})\ndf['Age']",
    }
    AmbiguousTruth = "ambiguous-truth", Error, "pandas" {
        catches: "a Series or DataFrame (`df['a'] > 1`) as the test of `if`/`while`, an operand of `and`/`or`, under `not`, or in a chained comparison",
        why: "pandas will not choose between any() and all(): ValueError: The truth value of a Series is ambiguous",
        crashing: "df = pd.DataFrame({'a': [1, 2]})\ndf[(df['a'] > 0) and (df['a'] < 2)]",
        running: "df = pd.DataFrame({'a': [1, 2]})\ndf[(df['a'] > 0) & (df['a'] < 2)]",
    }
    DroppedAgain = "dropped-again", Error, "pandas" {
        catches: "labels dropped in place by an earlier cell (or a re-run of this one) dropped again",
        why: "drop raises for labels not found: KeyError",
        crashing: "df.drop(columns=['a'], inplace=True)  # run twice",
        running: "df = df.drop(columns=['a'], errors='ignore')",
    }
    JoinOverlap = "join-overlap", Error, "pandas" {
        catches: "joins of frames sharing columns with no suffix; `df.insert` of a column the frame has (ValueError: cannot insert c, already exists); labels that certainly repeat (more rows than the distinct values they are drawn from): `reindex` of a frame whose index repeats a label, `pivot` of repeated (index, columns) pairs",
        why: "DataFrame.join refuses overlapping columns: ValueError: columns overlap but no suffix specified",
        crashing: "a.join(b)  # both have 'id'",
        running: "a.join(b, rsuffix='_b')",
    }
    FrameLength = "frame-length", Error, "pandas" {
        catches: "values of another length than a frame's rows or columns: `df['c'] = [...]`, `df.columns = [...]`, `df.index = [...]`, `pd.DataFrame(array or rows, columns=..., index=...)`, `pd.Series(values, index=...)`, dict columns of different lengths, a dict of single values with no `index=` (`pd.DataFrame({'a': 1, 'b': 2})`), an array of more than two dimensions, `df[mask]` of a list of bools or a bool array of another length than the rows, `df.insert` / `df.assign(c=[...])` / `set_axis` of another length; `df.sample(n)` / `s.sample(n)` of more rows than there are, or `frac=` above 1, without `replace=True` (rows counted through `head`, `tail`, `nlargest`, `nsmallest`)",
        why: "pandas needs one value per row (per column): ValueError: Length of values does not match length of index / Length mismatch / All arrays must be of the same length / Item wrong length / If using all scalar values, you must pass an index / Must pass 2-d input",
        crashing: "df = pd.DataFrame({'a': [1, 2]})\ndf['b'] = [1, 2, 3]",
        running: "df = pd.DataFrame({'a': [1, 2]})\ndf['b'] = [1, 2]",
    }
    ValueConversion = "value-conversion", Error, "pandas" {
        catches: "`astype(int)` / `to_numeric` of values that do not parse (a column's, or texts written in the cell), NaN cast to int, and numeric reductions (`mean`, `std`, `quantile`, `diff`, `corr`, `groupby(...).mean()`, ...) of text columns and of frames holding one (pandas 2 and later); numeric work on text Series: `nlargest`, `abs`, `clip`, `np.log` and kin, `rolling(...).mean()` (DataError), `interpolate` (pandas 3), `corrwith`; `pd.to_datetime` / `pd.Timestamp` of a literal text that is no date, or that a literal format cannot read; numpy's reductions and math functions (`a.mean()`, `np.sum`, `np.log`, `np.sqrt`, ...) of an array of text, or of a list of text (and numbers); text labels that are no integers given to Keras's `to_categorical`",
        why: "a string that is not a number cannot be converted or computed with: ValueError / TypeError (Cannot perform reduction 'mean' with string dtype)",
        crashing: "df['Age'].astype(int)  # holds 'unknown'",
        running: "pd.to_numeric(df['Age'], errors='coerce')",
    }
    PandasUnknownOption = "pandas-unknown-option", Error, "pandas" {
        catches: "a string option a pandas function or method does not take: an axis name other than 'index', 'columns' or 'rows' (or an axis a Series lacks: `s.sum(axis=1)`), a join `how` other than left, right, outer, inner or cross, `dropna(how=)` other than any or all, `keep=` other than first, last or False, `errors=` of `to_numeric` / `to_datetime` other than raise, coerce or ignore, a `rank` method, a `concat` join other than inner or outer; a function named by a string that misspells a reduction, given to `agg`, `aggregate`, `transform` or `apply` of a frame, Series or groupby (alone, in a list, in a dict's values, in a named aggregation) or to `pivot_table`'s `aggfunc` (`df.groupby('a').agg({'b': 'mena'})`)",
        why: "pandas checks the option before it works: ValueError (No axis named column for object type DataFrame / 'outter' is not a valid Merge type / invalid how option), KeyError for rank's method; a function name pandas looks up and does not find: AttributeError ('mena' is not a valid function for 'DataFrame' object), ValueError for transform",
        crashing: "df.drop('a', axis='column')",
        running: "df.drop('a', axis='columns')",
    }
    HistogramNan = "histogram-nan", Error, "numpy" {
        catches: "histograms of data with NaN and no `range=` or explicit bin edges",
        why: "the autodetected range is [nan, nan]: ValueError: autodetected range of [nan, nan] is not finite",
        crashing: "np.histogram(np.array([1.0, np.nan]))",
        running: "np.histogram(np.array([1.0, np.nan]), range=(0, 2))",
    }
    IndexOutOfRange = "index-out-of-range", Error, "Python values" {
        catches: "literal indices (and a `range` loop's last number) past the known length of a list, tuple, string, array or TensorFlow tensor, read or assigned; integer index lists and arrays past a numpy axis (`a[[0, 5]]`, `a[:, [0, 3]]`, a name holding `np.array([5])`, `a[np.arange(6)]` on 5 rows), labels of known value past `num_classes` given to Keras' `to_categorical`, and indices past the axis (or the flattened array) given to `np.take`, `np.put`, `np.delete`, `np.insert`; `pop()` of an empty list, `pop(i)` or `del xs[i]` past its end, `random.choice` of an empty sequence; numpy axes past an array's dimensions (`np.append(a, b, axis=1)` of 1-D arrays too), TensorFlow axes (`tf.reduce_*`, `tf.argmax`, `tf.expand_dims`, ...) past a tensor's rank, PyTorch dims (`x.sum(2)`, `x.unsqueeze(3)`, `F.softmax(x, dim=2)`, `x.transpose(0, 2)`, `x.permute(...)`: the callables read off the installed torch) past a tensor's rank; boolean masks (bool arrays, lists of bools) of another shape than the array's or another length than a Series; an integer or a slice given to a zero-dimensional numpy value or 0-d tensor (`x.sum()[0]`); class indices of known values past the scores' classes given to `CrossEntropyLoss` / `NLLLoss` (or negative, but the ignored -100), and indices past an `nn.Embedding`'s rows; `df.insert(loc, ...)` at a position past the frame's columns",
        why: "sequences raise for an index past their end: IndexError (numpy: AxisError for an axis, IndexError for a mask; TensorFlow: InvalidArgumentError)",
        crashing: "point = (1, 2)\npoint[2]",
        running: "point = (1, 2)\npoint[1]",
    }
    MissingKey = "missing-key", Error, "Python values" {
        catches: "str or int keys a dict lacks, read, updated (`counts[k] += 1`), popped without a default or deleted: a dict built from a literal, a comprehension over known keys, `dict(zip(keys, values))` or `dict(pairs)` in the cell (and no code adds: `labels = {0: 'cat', 1: 'dog'}; labels[2]`; any key of an empty one); `remove` or `pop` of an empty set, `popitem` of an empty dict, or a small dict of text keys the kernel holds; step names a scikit-learn pipeline lacks (`pipe['clf']`, `pipe.named_steps['clf']`)",
        why: "reading a key a dict lacks raises: KeyError",
        crashing: "sizes = {\"small\": 1, \"large\": 3}\nsizes[\"medium\"]",
        running: "sizes = {\"small\": 1, \"large\": 3}\nsizes.get(\"medium\", 2)",
    }
    IndexType = "index-type", Error, "Python values" {
        catches: "a list, tuple or str indexed by something other than an integer or a slice (a numpy array, a str, a float, None), a numpy array indexed by a float, slices of them by floats (`rows[:len(rows) / 2]`), a dict keyed by a list, dict or set, and such a key or set item in a literal, in `set(...)`, `hash(...)`, an `in` test of a dict or set, or a dict's or set's method (`get`, `pop`, `add`, ...); `.iloc` given labels where it takes positions (`df.iloc['a']`, `df.iloc[:, 'a']`, `df.iloc[:, ['a', 'b']]`: TypeError, ValueError or IndexError)",
        why: "sequences take integer indices and dicts hashable keys: TypeError: list indices must be integers or slices / slice indices must be integers / only integer scalar arrays can be converted to a scalar index / unhashable type; numpy: IndexError: only integers, slices ... are valid indices",
        crashing: "names = ['a', 'b']\nnames[np.array([0, 1])]",
        running: "names = np.array(['a', 'b'])\nnames[np.array([0, 1])]",
    }
    OperandType = "operand-type", Error, "Python values" {
        catches: "operators, augmented assignments, ordering comparisons and unary operators on builtin values of types they do not combine (`\"n = \" + 3`, `[1] + (2,)`, `None + 1`, `\"3\" < 2`, `-\"5\"`); arithmetic of a numpy array of text with a number or a numeric array (`np.array(['1', '2']) - 1`); arithmetic and ordering comparisons of a Series of text with numbers, or of numbers with text (`df['age'] > 30` of a text column); augmented assignments to a numpy array (or a part of one) whose results numpy will not cast back into its dtype: floats into integers (`pixels /= 255` of uint8 images, `a -= a.mean()` of ints), integers into bools (`mask += 1`), and the ufuncs given their first operand as `out=` (`np.divide(a, 2, out=a)`)",
        why: "the operator has no implementation for the types: TypeError: unsupported operand type(s) / can only concatenate / not supported between instances / bad operand type for unary; numpy's in-place ufuncs cast their output with casting='same_kind': UFuncTypeError: Cannot cast ufunc 'divide' output from dtype('float64') to dtype('uint8')",
        crashing: "n = 3\nprint(\"n = \" + n)",
        running: "n = 3\nprint(\"n = \" + str(n))",
    }
    ZeroDivision = "zero-division", Error, "Python values" {
        catches: "`/`, `//`, `%`, `divmod()` and `/=`, `//=`, `%=` of a Python int, float or bool by a divisor certainly zero: a literal, a name holding 0, `len()` of a known-empty container, `sum([])`, a counter no loop pass incremented",
        why: "Python's numbers refuse to divide by zero: ZeroDivisionError: division by zero (numpy arrays and scalars warn and give inf or nan instead)",
        crashing: "scores = []\nmean = sum(scores) / len(scores)",
        running: "scores = [3]\nmean = sum(scores) / len(scores)",
    }
    BuiltinArgument = "builtin-argument", Error, "Python values" {
        catches: "builtins, and methods of str/list/tuple/dict/set values, given a value of a type (or a text, or a number of arguments) they reject: `len(5)`, `int('abc')`, `sum(['a'])`, `', '.join([1, 2])`, `max([])`, `line.split(1)`, `rows.append(1, 2)`, `sizes.index(25)` of a value a known list, tuple or text lacks, `next([1, 2])`, `max(1, 'a')`, `ord('ab')`, `hex(2.5)`, `isinstance(x, 'int')`, `len(a, b)`, `[3, '1'].sort()`, `text.split('')`, `range(0, 9, 0)`, `open(path, 'rw')`, `os.path.join('data', 3)`, `random.randint(9, 1)`, `random.sample(xs, k)` of more than `xs` holds; format specs the value's type rejects (`f\"{name:.2f}\"` of a str, `'{:d}'.format(2.5)`, a spec given to None or a list); `math` functions given text, or a known number outside their domain (`math.sqrt(-1)`, `math.log(0)`); `len()` of a method not called or of an instance of a plain class without `__len__`; `float()`, `int()` and `math` functions given a numpy array or torch tensor of several elements, or a Series of several values (`float(df['price'])`), and `.item()` of one; `pickle.load(path)` and `pickle.dump(obj, path)` given a path for the file; `json.loads(f)` given a file object, None, a number or a container; known values standard functions refuse: `datetime.strptime` of a text its format cannot read, `date(2023, 2, 29)`, `dict([(1, 2, 3)])`, `list(zip(a, b, strict=True))` of other lengths; `int()` or `round()` of NaN (ValueError) or infinity (OverflowError): `np.nan`, `math.inf`, `float('nan')`; `len()` of a zero-dimensional numpy value or 0-d tensor; `json.dump(s)` of a value holding an array, a frame, a Series, a set, a tensor or an estimator, with no `default=`; `statistics` functions given fewer data points than they need (`statistics.mean([])`, `stdev([x])`: StatisticsError, a ValueError), `random.sample` of a population (a range too) smaller than the sample",
        why: "the builtin or method cannot handle that value: TypeError (or ValueError for text that is not a number, a format code the type lacks, a number outside a function's domain, or nothing to choose from)",
        crashing: "count = 5\nlen(count)",
        running: "count = [5]\nlen(count)",
    }
    NotCallable = "not-callable", Error, "Python values" {
        catches: "calls of values that are not callable: None, numbers, strings, lists, tuples, dicts, frames, Series and arrays; properties of library objects and attributes scikit-learn's `fit` sets, called like methods (`df.shape()`, `df.columns()`, `s.values()`, `arr.T()`, `tensor.shape()`, `model.layers()`, `clf.coef_()`)",
        why: "only callables can be called: TypeError: 'int' object is not callable",
        crashing: "size = 3\nsize(2)",
        running: "size = len\nsize([2])",
    }
    NotIterable = "not-iterable", Error, "Python values" {
        catches: "loops, unpacking and `list()`/`sorted()`/`zip()`/`map()`... of None, a number, a method of a builtin value not called (`for k, v in d.items:`) or an instance of a plain class of the notebook without `__iter__` and `__getitem__`, and loops unpacking the numbers of a range (`for i, x in range(n)`); a torch module's `parameters` method given uncalled to an optimizer (`torch.optim.SGD(model.parameters, lr=0.1)`); a zero-dimensional numpy value or 0-d tensor (`for v in x.mean():`)",
        why: "only iterables can be iterated: TypeError: 'NoneType' object is not iterable",
        crashing: "rows = None\nfor r in rows:\n    print(r)",
        running: "rows = []\nfor r in rows:\n    print(r)",
    }
    NotSubscriptable = "not-subscriptable", Error, "Python values" {
        catches: "subscripts of None, a number, a set, a dict view (`d.keys()[0]`), a generator expression, a function (`len[x]`, a `def` of the notebook, a method not called: `d.values[0]`), or an instance of a plain class of the notebook without `__getitem__`; a method of a frame, Series or numpy array subscripted where it should be called (`df.groupby['a']`, `df.head[5]`, `arr.reshape[2, 3]`)",
        why: "the type has no `__getitem__`: TypeError: 'NoneType' object is not subscriptable",
        crashing: "best = None\nbest[0]",
        running: "best = [None]\nbest[0]",
    }
    ItemAssignment = "item-assignment", Error, "Python values" {
        catches: "item assignment (`t[0] = x`, `s[i] += c`) or deletion (`del t[0]`) on a tuple, a str, None, a number or a set; item assignment on a TensorFlow tensor (`x = tf.zeros(3)`, `x[0] = 1.0`)",
        why: "the type has no `__setitem__`: TypeError: 'tuple' object does not support item assignment",
        crashing: "point = (1, 2)\npoint[0] = 5",
        running: "point = [1, 2]\npoint[0] = 5",
    }
    UnpackCount = "unpack-count", Error, "Python values" {
        catches: "unpacking a value of known length into another number of names (also the first item of a loop: a dict's keys, `zip`, `enumerate`, `d.items()`, `d.keys()`)",
        why: "unpacking needs exactly as many values as targets: ValueError: too many values to unpack / not enough values to unpack",
        crashing: "a, b = (1, 2, 3)",
        running: "a, b, c = (1, 2, 3)",
    }
    MissingAttribute = "missing-attribute", Error, "Signatures and attributes" {
        catches: "methods and attributes scikit-learn removed from estimators (`get_feature_names()`, `grid_scores_`: certain with the kernel's release, likely without), attributes the kernel could not find on the live object, or its type certainly lacks (`[].shape`, `'s'.append`, methods Keras removed, `df.append` and the others pandas 2 removed (certain with the kernel's pandas 2 or later, likely without its version), names a module lacks that misspell one it has, whatever the release (`np.arrange`, `pd.Dataframe`, `math.sqroot`, `keras.layers.Dens`: numpy, pandas, Keras and Python's common modules, read off the installed releases), names earlier releases of a module had (`pd.rolling_mean`, `pd.np`, `np.float`, `np.product`, TensorFlow 1's `tf.Session`, `tf.placeholder`, `tf.train.AdamOptimizer` from TensorFlow's own upgrade table, Keras 2's `keras.optimizers.adam`: certain with the kernel's release, likely without), DataFrame methods on a Series, what a plain numpy array lacks: `arr.append(x)`, `arr.head()`, what `fit` learns read without its trailing underscore (`grid.best_params`, `model.coef`, `rf.feature_importances`, `km.labels`, `pca.explained_variance_ratio`: any estimator of the tables), what `fit` learns on other estimators read of one whose class never has it, fitted or not (`LinearRegression().feature_importances_`, a forest's `coef_`, a regressor's `classes_`: read off scikit-learn's estimators; certain with the kernel's release, likely without), prediction methods a scikit-learn estimator lacks: `predict_proba` of `LinearSVC` or `Ridge`, or of `SVC` without `probability=True`; names Python 3 removed from standard modules: `string.letters`, `sys.maxint`, `itertools.izip`; attributes an instance of a plain class of the notebook certainly lacks: nothing in the class binds or stores them, no code of the notebook stores them); `json.load(path)` and `json.dump(obj, path)` given a path (or another builtin value) for the file; `fit` called on a scikit-learn estimator's class with data (`model = LinearRegression` without parentheses, then `model.fit(X, y)`: the data becomes `self`); text methods called on a Series without its `.str` accessor (`s.lower()`, `s.split(',')`) or on a DataFrame (`df.str`)",
        why: "reading an attribute the object lacks: AttributeError",
        crashing: "values = [1, 2]\nvalues.shape",
        running: "values = [1, 2]\nlen(values)",
    }
    MissingImportName = "missing-import-name", Error, "Signatures and attributes" {
        catches: "a name imported from a module that lacks it: one that misspells a name the module has, whatever the release (`from numpy import arrange`, `from keras.layers import Dens`), or one earlier releases had (`from keras.optimizers import adam`, `from tensorflow import Session`, `from sklearn.datasets import load_boston`: certain with the kernel's release, likely without); modules earlier releases had, in an import's path (`from sklearn.cross_validation import ...`, `import sklearn.externals.joblib`: ModuleNotFoundError); the modules and tables of `missing-attribute`",
        why: "Python imports only what the module has: ImportError: cannot import name",
        crashing: "from numpy import arrange",
        running: "from numpy import arange",
    }
    BadArguments = "bad-arguments", Error, "Signatures and attributes" {
        catches: "keywords scikit-learn removed (`OneHotEncoder(sparse=...)`, `normalize=` of the linear models, `KMeans(n_jobs=...)`, `TSNE(n_iter=...)`, `base_estimator=`: certain with the kernel's release, likely without); arguments that do not fit the signature the kernel reads off the live callable, a `def` of the notebook (a plain class's `__init__`, a method of an instance of one), or a known library function (a scikit-learn classifier or regressor fitted without `y`, a DataFrame keyword such as `by=` given to a Series method), or the signature of a scikit-learn, pandas, numpy or Keras callable read off the installed libraries (a keyword that misspells a parameter, `n_estimator=`, `inplce=` or `activaton=`, whatever the release; Keras 1 and 2 keywords such as `lr=` or `nb_epoch=` with the kernel's Keras 3; other misfits when the kernel runs the release the table was read off, else likely); `torch.from_numpy` of a list, tuple, DataFrame, Series or tensor; one sequence of numbers given to Keras's `pad_sequences`, which takes a list of sequences; a layer class, not a layer, added to a Sequential model (`model.add(layers.Dense)`); numpy's joining functions given the arrays apart (`np.concatenate(a, b)`, `np.vstack(a, b)`: the second read as the axis, or refused); a number given by position to `train_test_split`, whose sizes and seed are keywords only (`train_test_split(X, y, 0.2)`); the axis of a DataFrame's `rename`, `reindex` or `drop` given twice (`df.rename(columns={...}, axis=1)`, `df.drop('a', columns=['b'])`, and `df.drop(columns=[...], axis=1)`: certain with the kernel's pandas 3 or later, likely without); a mapper pandas calls or looks labels up in given neither a dict nor a function (`df.rename(columns=['x', 'y'])`, `s.map([1, 2])`, `df.map({...})`), a Series renamed with a list; keywords that misspell a parameter of `sorted`, `print`, `open`, `round`, `enumerate`, `sum` or `pow` (`sorted(xs, reversed=True)`), read off CPython",
        why: "a call with too many, missing or unexpected arguments: TypeError",
        crashing: "def area(w, h):\n    return w * h\narea(2)",
        running: "def area(w, h):\n    return w * h\narea(2, 3)",
    }
    SklearnNotFitted = "sklearn-not-fitted", Error, "scikit-learn" {
        catches: "predicting or transforming with an estimator that was never fitted (also a `clone`), or reading what `fit` learns (`coef_`, `best_params_`)",
        why: "scikit-learn checks fitted state first: NotFittedError; learnt attributes do not exist before fit: AttributeError",
        crashing: "model = LogisticRegression()\nmodel.predict(X)",
        running: "model = LogisticRegression().fit(X, y)\nmodel.predict(X)",
    }
    SklearnFeatureMismatch = "sklearn-feature-mismatch", Error, "scikit-learn" {
        catches: "feature counts or names unlike the fitted `n_features_in_` / `feature_names_in_` (of an estimator, or of a pipeline whose first step checks them: `make_pipeline(StandardScaler(), ...)`); labels a LabelEncoder was not fitted on (`transform`, known strings) or codes past its labels (`inverse_transform`), categories a OneHotEncoder or OrdinalEncoder did not see in `fit` (`handle_unknown='error'`, the default)",
        why: "a fitted estimator checks its input's width: ValueError: X has 3 features, but ... is expecting 4",
        crashing: "model.fit(X4, y)\nmodel.predict(X3)",
        running: "model.fit(X4, y)\nmodel.predict(X4)",
    }
    SklearnStringInput = "sklearn-string-input", Error, "scikit-learn" {
        catches: "text columns into estimators that need numbers",
        why: "the input is converted to float: ValueError: could not convert string to float",
        crashing: "LinearRegression().fit(df[['city']], y)",
        running: "LinearRegression().fit(pd.get_dummies(df[['city']]), y)",
    }
    SklearnNanInput = "sklearn-nan-input", Error, "scikit-learn" {
        catches: "NaN into estimators that reject it (those that accept NaN are known)",
        why: "input validation refuses missing values: ValueError: Input X contains NaN",
        crashing: "LinearRegression().fit(X_with_nan, y)",
        running: "HistGradientBoostingRegressor().fit(X_with_nan, y)",
    }
    SklearnEmptyInput = "sklearn-empty-input", Error, "scikit-learn" {
        catches: "fitting or transforming data with no rows or no columns",
        why: "input validation needs at least one sample and feature: ValueError: Found array with 0 sample(s)",
        crashing: "model.fit(df[df.Age > 200][['Age']], y)  # no rows",
        running: "model.fit(df[['Age']], y)",
    }
    SklearnSampleMismatch = "sklearn-sample-mismatch", Error, "scikit-learn" {
        catches: "X and y (or the arrays of `train_test_split`) of different numbers of samples; targets and predictions or scores of different lengths given to a metric of `sklearn.metrics` (`accuracy_score(y_test, model.predict(X_train))`; the metrics are read off the installed scikit-learn)",
        why: "input validation compares their lengths: ValueError: Found input variables with inconsistent numbers of samples",
        crashing: "LinearRegression().fit(np.ones((10, 2)), np.ones(8))",
        running: "LinearRegression().fit(np.ones((10, 2)), np.ones(10))",
    }
    Sklearn1dInput = "sklearn-1d-input", Error, "scikit-learn" {
        catches: "a 1-D array, list or Series where an estimator (the encoders too) needs a 2-D X, or an array of three or more dimensions (images); a frame or array of several columns into `LabelEncoder`, which encodes one",
        why: "input validation refuses 1-D data: ValueError: Expected 2D array, got 1D array instead",
        crashing: "model.fit(df['Age'], y)",
        running: "model.fit(df[['Age']], y)",
    }
    SklearnBadParams = "sklearn-bad-params", Error, "scikit-learn" {
        catches: "invalid parameters of an estimator or split: solver and penalty that do not go together, unknown scorers, split sizes, more clusters/components/neighbours than samples, a first `partial_fit` without `classes`, grid keys naming no parameter of the searched estimator or of a step of its pipeline (`GridSearchCV(SVC(), {'gamma_': [...]})`, `svc__gama`, `C` without its step; a dict or a list of dicts, written or held by a name), more `cv` folds than samples, `set_params` given a name that is no parameter of the estimator, more TruncatedSVD components than features, numeric parameters below their bound (`PolynomialFeatures(degree=-1)`, `n_estimators=0`, `n_neighbors=0`, `C=0`), k-fold splitters of fewer than two folds (`KFold(n_splits=1)`) or given a seed without `shuffle=True` (`KFold(5, random_state=42)`: ValueError since 0.24), `confusion_matrix(labels=...)` with none of the labels in `y_true`; a text parameter that is none of the strings the estimator takes (`SVC(kernel='rbg')`, `criterion='gine'`), read off scikit-learn's parameter constraints: certain for a misspelling of an option or with the kernel's release, likely without it",
        why: "fit validates its parameters: ValueError",
        crashing: "LogisticRegression(solver='lbfgs', penalty='l1').fit(X, y)",
        running: "LogisticRegression(solver='liblinear', penalty='l1').fit(X, y)",
    }
    SklearnDisplayLabels = "sklearn-display-labels", Error, "scikit-learn" {
        catches: "display labels that do not fit the confusion matrix",
        why: "plotting checks the labels against the matrix: ValueError",
        crashing: "ConfusionMatrixDisplay(confusion_matrix(y, p), display_labels=['a']).plot()  # 2 classes",
        running: "ConfusionMatrixDisplay(confusion_matrix(y, p), display_labels=['a', 'b']).plot()",
    }
    SklearnContinuousTarget = "sklearn-continuous-target", Error, "scikit-learn" {
        catches: "classifiers fitted or scored on, and classification metrics given, targets holding a non-integer value, or `predict_proba`'s 2-D output next to labels, classifiers that need two classes (`LogisticRegression`, `SVC`, `SGDClassifier`, ...) fitted on targets of one known class, metrics given string labels beside numeric ones",
        why: "classification needs discrete targets: ValueError: Unknown label type: 'continuous'",
        crashing: "LogisticRegression().fit(X, df['price'])  # 12.5, ...",
        running: "LinearRegression().fit(X, df['price'])",
    }
    ShapeMatmul = "shape-matmul", Error, "numpy" {
        catches: "matrix products of arrays whose inner dimensions differ (numpy, PyTorch, TensorFlow's `tf.matmul` and `@`); `np.einsum` subscripts that do not fit the operands (their number, dimensions, or a letter of two sizes)",
        why: "ValueError: matmul: Input operand 1 has a mismatch in its core dimension (TensorFlow: InvalidArgumentError: Matrix size-incompatible)",
        crashing: "np.ones((3, 2)) @ np.ones((3, 2))",
        running: "np.ones((3, 2)) @ np.ones((2, 3))",
    }
    ShapeBroadcast = "shape-broadcast", Error, "numpy" {
        catches: "elementwise operations on arrays or tensors whose shapes do not broadcast (operators, numpy ufuncs, `np.where`, `np.clip`, `np.select`, TensorFlow's `tf.add`, `tf.multiply`, ...; a list of numbers beside a numpy array is one), and values assigned to a part of an array that do not broadcast to it (`a[:, 0] = [1, 2]` of 3 rows); a TensorFlow variable assigned a value of another shape (`v.assign(x)`, `assign_add`, `assign_sub`)",
        why: "ValueError: operands could not be broadcast together (TensorFlow: InvalidArgumentError: Incompatible shapes)",
        crashing: "np.ones((3, 2)) + np.arange(3)",
        running: "np.ones((3, 2)) + np.arange(2)",
    }
    ShapeConcatenate = "shape-concatenate", Error, "numpy" {
        catches: "arrays joined along an axis whose other dimensions differ, or of different numbers of dimensions (`np.concatenate`, `np.append(a, b, axis=k)`, `tf.concat`); `np.concatenate` of numbers, texts or a 1-D array's elements (zero-dimensional to numpy) without `axis=None`",
        why: "ValueError: all the input array dimensions except for the concatenation axis must match exactly (TensorFlow: InvalidArgumentError)",
        crashing: "np.concatenate([np.ones((2, 3)), np.ones((2, 4))])",
        running: "np.concatenate([np.ones((2, 3)), np.ones((5, 3))])",
    }
    ShapeStack = "shape-stack", Error, "numpy" {
        catches: "arrays of different shapes stacked (numpy, `tf.stack`); ragged rows given to `torch.tensor`; `torch.tensor` of a list holding tensors of several elements",
        why: "ValueError: all input arrays must have the same shape (TensorFlow: InvalidArgumentError)",
        crashing: "np.stack([np.ones(3), np.ones(4)])",
        running: "np.stack([np.ones(3), np.ones(3)])",
    }
    ShapeReshape = "shape-reshape", Error, "numpy" {
        catches: "reshapes to a size other than the array's (`reshape`, `view`, `tf.reshape`) or with two unknown (`-1`) dimensions; squeezes of an axis longer than one, splits into unequal parts, transposes by something other than a permutation of the axes (`np.transpose`, torch's `permute`), torch's `t()` of more than two dimensions",
        why: "ValueError: cannot reshape array of size 6 into shape (4,)",
        crashing: "np.arange(6).reshape(4)",
        running: "np.arange(6).reshape(2, 3)",
    }
    NumpyArgument = "numpy-argument", Error, "numpy" {
        catches: "numpy calls given values their contract refuses: a negative dimension (`np.zeros(-1)`, `np.ones((3, -2))`), `choice` of more samples than the population with `replace=False` (`np.random` and a `default_rng()` Generator), `normal` with a negative `scale`, `np.polyfit(x, y, deg)` and `np.corrcoef(x, y)` / `np.cov(x, y)` of vectors of other lengths, `np.select` of other numbers of conditions and choices, a dtype word numpy does not know (`a.astype('flaot')`, `np.zeros(3, dtype='integer')`), `randint` / a Generator's `integers` of an empty range (`np.random.randint(5, 2)`), a seed outside 0 to 2**32 - 1, percentiles outside 0 to 100 and quantiles outside 0 to 1 (`np.quantile(a, 95)`), a histogram of zero or fewer bins, a negative size given to `np.eye`, `np.random.rand`, `np.linspace`, `np.repeat` or `np.tile`, negative integers of known value given to `np.bincount`, `np.random.choice` of an empty population or of probabilities `p` that are negative, of another count than the population or not summing to 1, a zero step of `np.arange` (ZeroDivisionError), `np.max`/`min`/`argmax`/`argmin`/`ptp` of an empty array (`np.array([])`)",
        why: "numpy checks its arguments: ValueError: negative dimensions are not allowed / Cannot take a larger sample than population when 'replace=False' / scale < 0 / all the input array dimensions except for the concatenation axis must match exactly; TypeError: expected x and y to have same length / data type 'flaot' not understood",
        crashing: "np.random.choice(3, size=5, replace=False)",
        running: "np.random.choice(5, size=3, replace=False)",
    }
    ShapeLinalg = "shape-linalg", Error, "numpy" {
        catches: "`numpy.linalg` functions given what is not a (stack of) square matrices (`inv`, `det`, `slogdet`, `eig`, `eigvals`, `eigh`, `cholesky`, `matrix_power`, `solve`), or a 1-D array where matrices are needed (`pinv`, `svd`, `qr`)",
        why: "LinAlgError (a ValueError): Last 2 dimensions of the array must be square / 1-dimensional array given",
        crashing: "np.linalg.inv(np.ones((2, 3)))",
        running: "np.linalg.pinv(np.ones((2, 3)))",
    }
    ShapeImage = "shape-image", Error, "numpy" {
        catches: "arrays `imshow` cannot show",
        why: "TypeError: Invalid shape for image data",
        crashing: "plt.imshow(np.ones((4, 4, 5)))",
        running: "plt.imshow(np.ones((4, 4, 3)))",
    }
    ShapeSavetxt = "shape-savetxt", Error, "numpy" {
        catches: "arrays of more than two dimensions given to `savetxt`",
        why: "ValueError: Expected 1D or 2D array",
        crashing: "np.savetxt('a.txt', np.ones((2, 2, 2)))",
        running: "np.savetxt('a.txt', np.ones((2, 4)))",
    }
    PlotLengths = "plot-lengths", Error, "matplotlib" {
        catches: "`plot(x, y)` of sequences of different known lengths",
        why: "matplotlib pairs x with y point by point: ValueError: x and y must have same first dimension",
        crashing: "plt.plot([1, 2, 3], [4, 5])",
        running: "plt.plot([1, 2, 3], [4, 5, 6])",
    }
    TfDtypeMismatch = "tf-dtype-mismatch", Error, "Keras" {
        catches: "TensorFlow arithmetic, comparisons, `@` and elementwise functions (`tf.add`, `tf.multiply`, `tf.matmul`, ...) of tensors of two dtypes (`tf.constant([1, 2])` is int32, `tf.ones` float32), or of an integer tensor and a float",
        why: "TensorFlow does not promote dtypes: InvalidArgumentError: cannot compute AddV2 as input #1 was expected to be a int32 tensor but is a float tensor (TypeError for `/` and for a Python float)",
        crashing: "tf.constant([1, 2]) + tf.ones(2)",
        running: "tf.cast(tf.constant([1, 2]), tf.float32) + tf.ones(2)",
    }
    KerasInputMismatch = "keras-input-mismatch", Error, "Keras" {
        catches: "data whose shape the model's inputs reject (also a last axis of size 1 where the first layer was built on another: `Conv2D(..., input_shape=(28, 28, 1))` given RGB images, and a `Dense` first layer given data of more axes whose last differs: MNIST's images for `input_shape=(784,)`); layers built on a tensor of a rank they reject, or reshaped to another size; input shapes given as a number, not a tuple (`keras.Input(784)`, `input_shape=4` on a Sequential model's first layer)",
        why: "ValueError: Input 0 of layer ... is incompatible with the layer",
        crashing: "model = Sequential([Input((4,)), Dense(1)])\nmodel.predict(np.ones((2, 5)))",
        running: "model = Sequential([Input((4,)), Dense(1)])\nmodel.predict(np.ones((2, 4)))",
    }
    KerasTargetMismatch = "keras-target-mismatch", Error, "Keras" {
        catches: "model outputs unlike the targets (one-hot iterators, labels, loss); class indices of known values past the outputs of a sparse categorical loss (certain when the notebook imports TensorFlow, whose backend checks them); data, targets, sample weights or `validation_data` of different numbers of samples given to `fit` or `evaluate` (`model.fit(X_train, y_test)`: Data cardinality is ambiguous)",
        why: "the loss cannot compare outputs and targets: ValueError: Shapes are incompatible",
        crashing: "model.compile(loss='categorical_crossentropy')\nmodel.fit(X, labels)  # integer labels",
        running: "model.compile(loss='sparse_categorical_crossentropy')\nmodel.fit(X, labels)",
    }
    KerasForeignModel = "keras-foreign-model", Error, "Keras" {
        catches: "Keras utilities given a PyTorch model",
        why: "Keras reads attributes only its own models have: AttributeError / ValueError",
        crashing: "keras.utils.plot_model(torch_net)",
        running: "keras.utils.plot_model(keras_model)",
    }
    KerasNotCompiled = "keras-not-compiled", Error, "Keras" {
        catches: "`fit` / `evaluate` / `train_on_batch` of a model never compiled",
        why: "ValueError: You must call `compile()` before using the model (tf.keras 2: RuntimeError)",
        crashing: "model = Sequential([Input((4,)), Dense(1)])\nmodel.fit(X, y)",
        running: "model = Sequential([Input((4,)), Dense(1)])\nmodel.compile(loss='mse')\nmodel.fit(X, y)",
    }
    KerasTextInput = "keras-text-input", Error, "Keras" {
        catches: "frames with text columns given as data to a Keras model whose first layer takes numbers (`fit`, `evaluate`, `predict`, ...), and targets of text; lists and arrays of text given to such a model",
        why: "Keras converts the data to float tensors: ValueError: could not convert string to float",
        crashing: "model = Sequential([Input((2,)), Dense(1)])\nmodel.fit(df[['age', 'city']], y)",
        running: "model.fit(pd.get_dummies(df[['age', 'city']]).astype('float32'), y)",
    }
    KerasLayerArgument = "keras-layer-argument", Error, "Keras" {
        catches: "numbers a Keras layer's constructor refuses: no units, filters, heads or embedding dimensions (`Dense(0)`), a kernel or pool size below 1, a dropout rate outside 0 to 1, a negative LeakyReLU slope; a float where Dense, GRU, SimpleRNN, Embedding, RepeatVector or MultiHeadAttention need an int, even a whole one (`Dense(64 / 2)`)",
        why: "ValueError: Received an invalid value for `units`, expected a positive integer",
        crashing: "layers.Dropout(1.5)",
        running: "layers.Dropout(0.5)",
    }
    KerasUnknownIdentifier = "keras-unknown-identifier", Error, "Keras" {
        catches: "an activation, initializer or regularizer name Keras does not know, given to a layer; a padding a convolution does not take; an unknown optimizer, loss or metric name given to `compile`",
        why: "ValueError: Could not interpret activation function identifier",
        crashing: "Dense(10, activation='rellu')",
        running: "Dense(10, activation='relu')",
    }
    TorchInputMismatch = "torch-input-mismatch", Error, "PyTorch" {
        catches: "tensors a module's layers reject (`Linear`, `ConvNd`, `BatchNormNd`, `LSTM`/`GRU`/`RNN`: rank or size); `TensorDataset` of tensors of other lengths",
        why: "RuntimeError: mat1 and mat2 shapes cannot be multiplied",
        crashing: "nn.Linear(4, 2)(torch.ones(3, 5))",
        running: "nn.Linear(4, 2)(torch.ones(3, 4))",
    }
    TorchLayerMismatch = "torch-layer-mismatch", Error, "PyTorch" {
        catches: "a module whose own layers do not chain",
        why: "the output of one layer does not fit the next: RuntimeError",
        crashing: "nn.Sequential(nn.Linear(4, 8), nn.Linear(6, 2))(torch.ones(1, 4))",
        running: "nn.Sequential(nn.Linear(4, 8), nn.Linear(8, 2))(torch.ones(1, 4))",
    }
    TorchLossShape = "torch-loss-shape", Error, "PyTorch" {
        catches: "losses given targets of another shape than the input",
        why: "ValueError: Using a target size that is different to the input size",
        crashing: "nn.BCELoss()(torch.rand(4, 1), torch.ones(4))",
        running: "nn.BCELoss()(torch.rand(4), torch.ones(4))",
    }
    TorchDtypeMismatch = "torch-dtype-mismatch", Error, "PyTorch" {
        catches: "matrix products (`@`, `torch.matmul`, `mm`, `bmm`, `dot`) of tensors of two dtypes, integer tensors given to `nn.Linear` / convolutions, float64 (or float16) tensors given to them while no cell gives the weights another dtype (`model(torch.from_numpy(X))` of a numpy float64 `X`), class indices of a floating-point dtype given to `CrossEntropyLoss` / `NLLLoss`, new integer tensors made with `requires_grad=True`, and integer tensors given to `mean`, `std`, `var`, `softmax` and the other callables that take floating-point tensors only (read off the installed torch)",
        why: "RuntimeError: expected m1 and m2 to have the same dtype, but got: long int != float",
        crashing: "torch.tensor([[1, 2]]) @ weights  # weights: torch.float32",
        running: "torch.tensor([[1.0, 2.0]]) @ weights",
    }
    TorchNumpyGrad = "torch-numpy-grad", Error, "PyTorch" {
        catches: "`.numpy()` of a tensor that requires grad (`requires_grad=True`, `nn.Parameter`, a module's output, what is computed from them) while no cell turns autograd off",
        why: "RuntimeError: Can't call numpy() on Tensor that requires grad",
        crashing: "torch.zeros(3, requires_grad=True).numpy()",
        running: "torch.zeros(3, requires_grad=True).detach().numpy()",
    }
    TorchBackward = "torch-backward", Error, "PyTorch" {
        catches: "`backward()` of a tensor that requires grad, of several elements, without a gradient; of one that does not require grad",
        why: "RuntimeError: grad can be implicitly created only for scalar outputs / element 0 of tensors does not require grad",
        crashing: "w = torch.randn(3, requires_grad=True)\n(w * 2).backward()",
        running: "w = torch.randn(3, requires_grad=True)\n(w * 2).sum().backward()",
    }
    TorchModuleDefinition = "torch-module-definition", Error, "PyTorch" {
        catches: "instances of the notebook's `nn.Module` subclasses that cannot be built or called: `__init__` assigns a module (or `nn.Parameter`) to `self` before `super().__init__()`, or the class defines no `forward`",
        why: "AttributeError: cannot assign module before Module.__init__() call; NotImplementedError: Module [Net] is missing the required \"forward\" function",
        crashing: "class Net(nn.Module):\n    def __init__(self):\n        self.fc = nn.Linear(3, 1)\nnet = Net()",
        running: "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(3, 1)\nnet = Net()",
    }
    TooDeep = "too-deep", Info, "Analysis limits" {
        catches: "a statement nested more than 100 levels deep: it is not analysed, and the names it mentions count as unknown (not a crash)",
        why: "no crash: analysing it would overflow the browser's stack",
        crashing: "(none: this note never predicts a crash)",
        running: "x = ((((((((((((1))))))))))))  # deeper still",
    }
    CoreFailed = "core-failed", Info, "Analysis limits" {
        catches: "a cell the analysis core failed on in the browser: the core was restarted and that text is skipped until it changes (not a crash)",
        why: "no crash: a defect of cellguard's, reported instead of disabling the checks",
        crashing: "(none: this note never predicts a crash)",
        running: "(any cell)",
    }
    LlmLikelyCrash = "llm-likely-crash", Warning, "LLM" {
        catches: "a crash an LLM predicts on an explicit check (not a rule: no certainty)",
        why: "the LLM's reasoning, checked against the kernel's facts",
        crashing: "(any cell the LLM judges to crash)",
        running: "(any cell the LLM judges to run)",
    }
    DryRunCrash = "dry-run-crash", Error, "Dry run" {
        catches: "the exception the cell raised when run on an isolated copy of the kernel (docs/dry-run.md), on the line that raised",
        why: "the cell really raised it: the copy had the same objects as the kernel",
        crashing: "df['Fare'] after an earlier cell dropped 'Fare' (KeyError, in the copy)",
        running: "a cell the copy ran to its end within the time budget",
    }
}

impl Rule {
    pub fn from_code(code: &str) -> Option<Rule> {
        Rule::ALL.iter().copied().find(|r| r.code() == code)
    }

    /// The builtin exception classes the exception a diagnostic predicts derives from: the most
    /// derived builtin class of every exception the rule may stand for (numpy's `AxisError` is
    /// a `ValueError` and an `IndexError`), so that a `try` knows which handlers catch it.
    /// `None` where that is not pinned down: any handler may catch it.
    pub fn raised(self) -> Option<&'static [&'static str]> {
        use Rule::*;
        Some(match self {
            SyntaxError => &["SyntaxError"],
            UndefinedName => &["NameError", "UnboundLocalError"],
            MissingColumn | DroppedAgain | MissingKey => &["KeyError"],
            ModuleCalled | OperandType | NotCallable | NotIterable | NotSubscriptable
            | ItemAssignment | ShapeImage => &["TypeError"],
            // Keras refuses keywords its `**kwargs` do not take, and what `pad_sequences` or
            // `Sequential.add` cannot use, with ValueError.
            BadArguments => &["TypeError", "ValueError"],
            // `rank` looks its method up in a dict.
            PandasUnknownOption => &["ValueError", "KeyError", "AttributeError"],
            AmbiguousTruth
            | JoinOverlap
            | FrameLength
            | HistogramNan
            | UnpackCount
            | SklearnFeatureMismatch
            | SklearnStringInput
            | SklearnNanInput
            | SklearnEmptyInput
            | SklearnSampleMismatch
            | Sklearn1dInput
            | SklearnDisplayLabels
            | SklearnContinuousTarget
            | ShapeLinalg
            | ShapeSavetxt
            | PlotLengths
            | KerasTextInput
            | KerasLayerArgument
            | KerasUnknownIdentifier => &["ValueError"],
            // PyTorch raises RuntimeError where numpy raises ValueError.
            ShapeMatmul | ShapeBroadcast | ShapeConcatenate | ShapeStack | ShapeReshape => {
                &["ValueError", "RuntimeError"]
            }
            ValueConversion | SklearnBadParams | TfDtypeMismatch | NumpyArgument => {
                &["ValueError", "TypeError"]
            }
            // numpy's AxisError; TensorFlow's InvalidArgumentError is only an Exception.
            IndexOutOfRange => &["IndexError", "ValueError"],
            // pandas' `.iloc` refuses labels with ValueError too.
            IndexType => &["TypeError", "IndexError", "ValueError"],
            // `.item()` of a torch tensor of several elements: RuntimeError.
            BuiltinArgument => &[
                "TypeError",
                "ValueError",
                "IndexError",
                "KeyError",
                "RuntimeError",
            ],
            MissingAttribute => &["AttributeError"],
            MissingImportName => &["ImportError"],
            TorchBackward => &["RuntimeError"],
            ZeroDivision => &["ZeroDivisionError"],
            SklearnNotFitted => &["ValueError", "AttributeError"],
            KerasInputMismatch
            | KerasTargetMismatch
            | KerasForeignModel
            | KerasNotCompiled
            | TorchInputMismatch
            | TorchLayerMismatch
            | TorchLossShape
            | TorchDtypeMismatch
            | TorchNumpyGrad
            | TorchModuleDefinition
            | TooDeep
            | CoreFailed
            | LlmLikelyCrash
            | DryRunCrash => return None,
        })
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// Tests and callers compare codes with the strings users see.
impl PartialEq<&str> for Rule {
    fn eq(&self, other: &&str) -> bool {
        self.code() == *other
    }
}

fn severity_word(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "info",
    }
}

/// `cellguard rules CODE`: one rule's documentation.
pub fn explain(rule: Rule) -> String {
    let doc = rule.doc();
    let indent = |s: &str| s.lines().map(|l| format!("    {l}\n")).collect::<String>();
    format!(
        "{code} ({severity}, {group})\n\nWhat it catches: {catches}.\nWhy it crashes: {why}.\n\nCrashes:\n{crash}\nRuns:\n{ok}",
        code = rule.code(),
        severity = severity_word(rule.default_severity()),
        group = doc.group,
        catches = doc.catches,
        why = doc.why,
        crash = indent(doc.crashing),
        ok = indent(doc.running),
    )
}

/// `cellguard rules`: one line per rule.
pub fn listing() -> String {
    let width = Rule::ALL.iter().map(|r| r.code().len()).max().unwrap_or(0);
    Rule::ALL
        .iter()
        .map(|r| format!("{:width$}  {}\n", r.code(), r.doc().catches))
        .collect()
}

/// The README's rule table: one row per rule, grouped by family.
pub fn markdown_table() -> String {
    let mut out = String::from("| Code | Family | Catches | Crash |\n|---|---|---|---|\n");
    for rule in Rule::ALL {
        let doc = rule.doc();
        out.push_str(&format!(
            "| `{}` | {} | {} | {} |\n",
            rule.code(),
            doc.group,
            doc.catches.replace('|', "\\|"),
            doc.why.replace('|', "\\|"),
        ));
    }
    out
}

/// The settings schema's `severities` property: one optional entry per code.
pub fn severities_schema() -> serde_json::Value {
    let mut properties = serde_json::Map::new();
    for rule in Rule::ALL {
        properties.insert(
            rule.code().to_string(),
            serde_json::json!({
                "type": "string",
                "description": rule.doc().catches,
                "enum": ["error", "warning", "info", "off"],
            }),
        );
    }
    serde_json::json!({
        "type": "object",
        "title": "Severity per diagnostic code",
        "description": "Show a diagnostic code (e.g. \"undefined-name\") as error, warning or info, or \"off\" to hide it. The codes are those of `cellguard rules`.",
        "properties": properties,
        "additionalProperties": false,
        "default": {},
    })
}

pub const README_BEGIN: &str =
    "<!-- rules:begin (generated by `cellguard rules --generate` from crate/src/codes.rs) -->";
pub const README_END: &str = "<!-- rules:end -->";
pub const README: &str = "README.md";
pub const SETTINGS_SCHEMA: &str = "labextension/schema/settings.json";

/// The generated files' contents, given the committed ones (paths relative to the repository
/// root): the README with its table between the markers replaced, the settings schema with its
/// `severities` property replaced.
pub fn generated(readme: &str, settings: &str) -> Result<Vec<(&'static str, String)>, String> {
    let start = readme
        .find(README_BEGIN)
        .ok_or_else(|| format!("{README} lacks the marker {README_BEGIN}"))?;
    let end = readme
        .find(README_END)
        .filter(|&e| e > start)
        .ok_or_else(|| format!("{README} lacks the marker {README_END}"))?;
    let readme = format!(
        "{}{README_BEGIN}\n{}{}",
        &readme[..start],
        markdown_table(),
        &readme[end..]
    );
    let settings = splice_json_property(settings, "severities", &severities_schema())?;
    Ok(vec![(README, readme), (SETTINGS_SCHEMA, settings)])
}

/// Replaces the value of the first property `key` of the JSON text by `value`, pretty-printed at
/// the property's indentation, leaving every other byte as it was (key order, formatting).
fn splice_json_property(
    text: &str,
    key: &str,
    value: &serde_json::Value,
) -> Result<String, String> {
    let needle = format!("\"{key}\":");
    let at = text
        .find(&needle)
        .ok_or_else(|| format!("no \"{key}\" property"))?;
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let indent = &text[line_start..at];
    let value_start = at
        + needle.len()
        + text[at + needle.len()..]
            .find(|c: char| !c.is_whitespace())
            .ok_or("truncated JSON")?;
    let value_end = value_start + json_value_len(&text[value_start..])?;
    let pretty = prettier_json(value, indent.len(), at - line_start + needle.len() + 1);
    Ok(format!(
        "{}{pretty}{}",
        &text[..value_start],
        &text[value_end..]
    ))
}

/// JSON as prettier prints it (the repository's formatter for the schema): objects one entry a
/// line, arrays on one line when they fit in 80 columns. `indent` is the nesting's indentation,
/// `column` where the value starts.
fn prettier_json(value: &serde_json::Value, indent: usize, column: usize) -> String {
    use serde_json::Value;
    let inner = " ".repeat(indent + 2);
    match value {
        Value::Object(map) if !map.is_empty() => {
            let entries: Vec<String> = map
                .iter()
                .map(|(key, v)| {
                    let key = format!("{}: ", Value::String(key.clone()));
                    let printed = prettier_json(v, indent + 2, indent + 2 + key.len());
                    format!("{inner}{key}{printed}")
                })
                .collect();
            format!("{{\n{}\n{}}}", entries.join(",\n"), " ".repeat(indent))
        }
        Value::Array(items) if !items.is_empty() => {
            let flat = items.iter().all(|v| !v.is_array() && !v.is_object());
            let one_line = format!(
                "[{}]",
                items
                    .iter()
                    .map(Value::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            // The comma after it counts.
            if flat && column + one_line.len() < 80 {
                return one_line;
            }
            let lines: Vec<String> = items
                .iter()
                .map(|v| format!("{inner}{}", prettier_json(v, indent + 2, indent + 2)))
                .collect();
            format!("[\n{}\n{}]", lines.join(",\n"), " ".repeat(indent))
        }
        other => other.to_string(),
    }
}

/// The length in bytes of the JSON object or array at the start of `text`.
fn json_value_len(text: &str) -> Result<usize, String> {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (i, c) in text.char_indices() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '{' | '[' => depth += 1,
            '}' | ']' => {
                depth = depth.checked_sub(1).ok_or("unbalanced JSON")?;
                if depth == 0 {
                    return Ok(i + 1);
                }
            }
            _ => {}
        }
    }
    Err("unbalanced JSON".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_kebab_case_and_serialize_as_themselves() {
        let mut seen = std::collections::BTreeSet::new();
        for rule in Rule::ALL {
            let code = rule.code();
            assert!(seen.insert(code), "{code} twice");
            assert!(code
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'));
            assert_eq!(serde_json::to_value(rule).unwrap(), code);
            assert_eq!(Rule::from_code(code), Some(*rule));
        }
    }

    #[test]
    fn splicing_keeps_everything_else() {
        let text = "{\n  \"a\": 1,\n  \"s\": {\n    \"x\": \"}\"\n  },\n  \"b\": [2]\n}\n";
        let out = splice_json_property(text, "s", &serde_json::json!({"y": 2})).unwrap();
        assert_eq!(
            out,
            "{\n  \"a\": 1,\n  \"s\": {\n    \"y\": 2\n  },\n  \"b\": [2]\n}\n"
        );
    }
}
