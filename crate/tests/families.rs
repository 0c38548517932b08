//! Variant tests of the rule families, written from the libraries' documented contracts: each
//! case of `fixtures/families/*.json` is a crashing cell (the rule fires with its code, range and
//! message facts) and its no-crash twin (silence). `scripts/verify_family_cases.py` runs every
//! case under the real libraries to prove that the crash raises and the twin runs. One snapshot
//! per file keeps every case's code, range, message and fix.

use cellguard::diagnostic::Diagnostic;
use serde_json::Value;

mod support;

/// Checks the case's `target` after its cell `history` ran, then its `cells`; the kernel also
/// holds the names `setup` binds (the Python verifier runs it; here only `objects` tells what
/// they hold). A case with `"kernel": false` is checked with no kernel to ask (a saved notebook
/// from the command line), so it has no `setup` nor `objects`.
fn run(case: &Value, target: &str) -> Vec<Diagnostic> {
    let field = |k: &str| case[k].as_str().unwrap_or("");
    let cells = case["cells"].as_array().map_or(&[][..], Vec::as_slice);
    let mut executed = vec![field("history").to_string()];
    executed.extend(cells.iter().filter_map(Value::as_str).map(str::to_string));
    if case["kernel"] == Value::Bool(false) {
        return support::check_offline(&executed, target);
    }
    support::check_after(&executed, &[field("setup")], target, field("objects"))
}

/// Runs every case of one fixture file: fails with one line per case that misses its code, range
/// or facts, or whose twin is not silent; then compares the file's snapshot.
fn family(file: &str) {
    let path = format!(
        "{}/tests/fixtures/families/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    let cases: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert!(!cases.is_empty());
    let mut failures = Vec::new();
    let mut report = String::new();
    for case in &cases {
        let field = |k: &str| case[k].as_str().unwrap_or("");
        let (name, code, crash) = (field("name"), field("code"), field("crash"));
        let found = run(case, crash);
        report.push_str(&format!(
            "{name} (crash)\n{}",
            support::describe(crash, &found)
        ));
        match found.iter().find(|d| d.code == code) {
            None => failures.push(format!("{name}: expected {code}, got {found:?}")),
            Some(d) => {
                let text = &crash[d.range.start as usize..d.range.end as usize];
                if let Some(covered) = case["covered"].as_str() {
                    if text != covered {
                        failures.push(format!("{name}: range {text:?}, expected {covered:?}"));
                    }
                }
                for fact in case["facts"].as_array().unwrap() {
                    let fact = fact.as_str().unwrap();
                    if !d.message.contains(fact) {
                        failures.push(format!("{name}: message {:?} lacks {fact:?}", d.message));
                    }
                }
            }
        }
        let twin = run(case, field("twin"));
        report.push_str(&format!(
            "{name} (twin)\n{}",
            support::describe(field("twin"), &twin)
        ));
        if !twin.is_empty() {
            failures.push(format!("{name}: twin not silent: {twin:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    insta::assert_snapshot!(file.trim_end_matches(".json"), report);
}

#[test]
fn numpy_axes_indices_and_shapes() {
    family("numpy.json");
}

#[test]
fn pandas_column_keys_of_every_method() {
    family("pandas.json");
}

#[test]
fn sklearn_metrics_pipelines_searches_and_cross_validation() {
    family("sklearn.json");
}

#[test]
fn matplotlib_images_axes_arrays_and_plot_lengths() {
    family("matplotlib.json");
}

#[test]
fn modules_called_and_attributes_they_lack() {
    family("modules.json");
}

#[test]
fn keras_input_ranks_of_every_first_layer() {
    family("keras.json");
}

/// torch is not a dependency of the project: `scripts/verify_family_cases.py` runs these with a
/// Python that has torch (2.15.0 at the last run).
#[test]
fn torch_products_joins_modules_and_losses() {
    family("torch.json");
}

/// Dims past a tensor's rank, permutations, integer tensors where floats are needed, `.item()`
/// of several elements, optimizers given `parameters` uncalled, and module classes that cannot
/// be built or called; verified like `torch.json`.
#[test]
fn torch_dims_dtypes_items_and_module_classes() {
    family("torch_tensor_contracts.json");
}

/// Tensors autograd tracks (`requires_grad=True`, `nn.Parameter`, the outputs of modules with
/// weights, what is computed from them) given to `.numpy()` or to `backward()` without a
/// gradient while they hold several elements; verified like `torch.json`.
#[test]
fn torch_grad_tracking_and_layer_inputs() {
    family("torch_layers_grad.json");
}

#[test]
fn numpy_stacks_text_files_and_histograms() {
    family("numpy_stacks_files_histograms.json");
}

#[test]
fn pandas_joins_drops_and_conversions() {
    family("pandas_joins_drops_conversions.json");
}

#[test]
fn sklearn_feature_counts_and_empty_inputs() {
    family("sklearn_features_and_empty_inputs.json");
}

#[test]
fn keras_targets_against_outputs_and_losses() {
    family("keras_targets.json");
}

#[test]
fn names_undefined_and_modules_called() {
    family("names.json");
}

#[test]
fn pandas_columns_through_operations() {
    family("pandas_columns_through_operations.json");
}

#[test]
fn sklearn_estimators_loops_clones_and_params() {
    family("sklearn_estimators_loops_clones_and_params.json");
}

#[test]
fn pandas_text_reductions_series_methods_and_pandas_2_removals() {
    family("pandas_series_frames_and_versions.json");
}

#[test]
fn pandas_frame_reductions_of_text_lengths_of_labels_and_casts() {
    family("pandas_dtypes_lengths.json");
}

/// pandas contracts, round 3: `insert` of a column the frame has, of another length or past the
/// columns, `assign` and `set_axis` lengths, `xs` of missing labels, `reindex` and `pivot` of
/// repeated labels, numeric work on text Series (`nlargest`, `abs`, `clip`, numpy math, window
/// aggregations, `interpolate`, `corrwith`), `pd.to_datetime` / `pd.Timestamp` / `pd.to_numeric`
/// of literal text they cannot read, text methods without the `.str` accessor, and the lists
/// `tolist()` gives.
#[test]
fn pandas_inserts_axes_numeric_work_on_text_and_dates() {
    family("pandas_contracts_3.json");
}

#[test]
fn sklearn_inputs_of_fitted_models() {
    family("sklearn_inputs_of_fitted_models.json");
}

#[test]
fn pandas_truth_values_of_series_and_frames() {
    family("pandas_truth_values.json");
}

#[test]
fn numpy_rows_of_loops_enumerate_and_comprehensions() {
    family("numpy_loops.json");
}

#[test]
fn tensorflow_tensor_shapes_axes_and_joins() {
    family("tensorflow.json");
}

#[test]
fn numpy_linalg_square_matrices_and_shape_functions() {
    family("numpy_linalg_shape_functions.json");
}

#[test]
fn numpy_attributes_an_array_lacks() {
    family("numpy_array_attributes.json");
}

#[test]
fn keras_identifiers_of_layers() {
    family("keras_identifiers.json");
}

#[test]
fn keras_layer_lists_in_names_loops_and_functions() {
    family("keras_layer_lists.json");
}

#[test]
fn keras_layer_arguments_out_of_bounds() {
    family("keras_layer_arguments.json");
}

#[test]
fn keras_text_given_as_data_or_targets() {
    family("keras_text_inputs.json");
}

#[test]
fn sklearn_methods_estimators_lack() {
    family("sklearn_methods_estimators_lack.json");
}

#[test]
fn pandas_groupby_and_pivot_table_result_columns() {
    family("pandas_groupby_results.json");
}

#[test]
fn sklearn_text_through_splits_feature_lists_and_label_encoders() {
    family("sklearn_text_through_splits.json");
}

#[test]
fn sklearn_column_transformer_selections() {
    family("sklearn_column_transformers.json");
}

#[test]
fn pandas_text_row_labels_of_range_indexes() {
    family("pandas_row_labels.json");
}

#[test]
fn pandas_keys_against_each_frames_own_index() {
    family("pandas_frame_indexes.json");
}

#[test]
fn pandas_get_dummies_result_columns() {
    family("pandas_get_dummies.json");
}

#[test]
fn every_syntax_a_value_reaches_a_rule_through() {
    family("syntax_variants.json");
}

/// `try` with handlers, `with ... as`, `match`, bools, lambdas of executed cells, augmented
/// assignments of arrays, `pass`: written from the language reference.
#[test]
fn every_statement_form_the_walker_follows() {
    family("syntax_variants2.json");
}

/// Every data rule on objects an earlier cell made, known only through the real kernel
/// summarizer's summaries (`scripts/verify_family_cases.py --write` stores them).
#[test]
fn data_rules_on_kernel_summarised_objects() {
    family("kernel_summaries.json");
}

/// Values earlier cells left, known by their code alone (no kernel summary): the walker's
/// globals carried from cell to cell.
#[test]
fn values_earlier_cells_left() {
    family("cross_cell_values.json");
}

#[test]
fn library_properties_and_fitted_attributes_called() {
    family("library_properties_called.json");
}

#[test]
fn notebook_classes_constructors_methods_and_attributes() {
    family("notebook_classes.json");
}

#[test]
fn values_built_by_statements_operators_and_literals() {
    family("built_values.json");
}

/// The walker's former gaps, each followed generally: lists and dicts changed by the notebook's
/// functions through their parameters, `map` / `filter` / `sorted` results, `match` sequence,
/// mapping, value and or-patterns, names the pandas module removed.
#[test]
fn values_through_functions_iterators_match_patterns_and_pandas_removals() {
    family("walker_gaps.json");
}

/// `json` and `pickle` `load`/`dump` given a path where the file object goes; texts and numbers
/// handed to library functions keep their values.
#[test]
fn files_json_and_pickle_and_values_calls_cannot_change() {
    family("stdlib_files.json");
}

/// scikit-learn's metrics given targets and predictions of other lengths: another split's, a
/// hand-written list, arrays the kernel summarized; `predict` gives one value per sample.
#[test]
fn sklearn_metrics_of_other_lengths() {
    family("sklearn_metric_lengths.json");
}

#[test]
fn library_signatures_of_constructors_functions_and_methods() {
    family("library_signatures.json");
}

/// Python's and numpy's documented contracts: division of Python numbers by a zero the code
/// makes certain, `json.loads` of a file object, boolean masks of another length, arrays of
/// frames, numpy arguments out of their contract, and a function of the notebook called before
/// the cell binds a global it reads.
#[test]
fn python_and_numpy_contracts() {
    family("python_numpy_contracts.json");
}

#[test]
fn keras_history_logs_of_compile_and_fit() {
    family("keras_history_logs.json");
}

/// numpy's indices (`take`, `delete`, `put`, `insert`, integer index lists), operands that do
/// not broadcast (`where`, `clip`, `select`), two unknown dimensions of a reshape, and the names
/// numpy 1.24 and 2.x removed from the module.
#[test]
fn numpy_indices_shapes_and_removed_names() {
    family("numpy_indices_shapes.json");
}

/// Values of small arrays (index arrays and labels made of known numbers, `np.arange`) past
/// an axis or `num_classes`, numpy arguments out of their contracts (a zero step, negative
/// counts, probabilities that are not one distribution), and parameters scikit-learn's
/// estimators and splitters refuse (a negative degree, no trees, one fold).
#[test]
fn array_values_and_parameters() {
    family("array_values_and_parameters.json");
}

/// TensorFlow tensors (constants, conversions, arithmetic, the notebook's functions, earlier
/// cells) given an item: they cannot change in place; variables assigned values of another
/// shape.
#[test]
fn tf_tensors_given_an_item() {
    family("tf_item_assignment.json");
}

/// Python's own builtins and types: methods of builtin values not called (`d.items`), instances
/// of the notebook's plain classes without `__getitem__` / `__len__` / `__iter__`, keys a known
/// dict lacks updated (`counts[k] += 1`), empty sets and dicts popped, dict comprehensions of
/// known keys, and builtins given what they reject through names, loops, functions and cells.
#[test]
fn python_builtins_methods_instances_and_keys() {
    family("python_builtins.json");
}

/// Standard functions and builtins given known values they refuse: `datetime.strptime` of a text
/// its format cannot read, dates out of range, `dict` of items not pairs, `zip(..., strict=True)`
/// of other lengths, lists filled in `range` loops, `json.dump(s)` of arrays, frames and sets;
/// through names, loops, earlier cells, the notebook's functions and the kernel's values.
#[test]
fn python_stdlib_values() {
    family("python_stdlib_values.json");
}

/// Text in numpy arithmetic (arrays of text with numbers, their reductions and math functions,
/// lists of text given to them), zero-dimensional parts given to `np.concatenate`, NaN or
/// infinity given to `int()` / `round()`, and lists of numbers numpy makes arrays of (operands,
/// `np.dot`, `np.reshape`, values assigned to a part of an array), zero-dimensional results of
/// whole reductions indexed, measured or iterated, and the None that in-place ndarray methods
/// return: through names, loops, earlier cells, the notebook's functions and the kernel's arrays.
#[test]
fn numpy_text_values() {
    family("numpy_text_values.json");
}

/// Augmented assignments whose results numpy will not cast back into the array (floats into
/// integers, integers into bools): names, parts of arrays, dtypes named every way, numpy's own
/// scalars, a name holding the operand, loops, the notebook's functions and the kernel's arrays.
#[test]
fn numpy_in_place_casts() {
    family("numpy_in_place_casts.json");
}

/// PyTorch given data it cannot take (`torch.from_numpy` of lists, frames, Series or tensors,
/// `torch.tensor` of a list of tensors), zero-dimensional tensors indexed, measured or iterated,
/// and class or embedding indices of known values past their range; through names, loops,
/// `Sequential` models, numpy arrays and the kernel's values.
#[test]
fn torch_data_and_indices() {
    family("torch_data_and_indices.json");
}

/// Keras's utilities and models given data they refuse: one sequence of numbers given to
/// `pad_sequences`, text labels to `to_categorical`, a layer class (not a layer) added to a
/// Sequential model, lists and arrays of text given to `fit` / `predict`, class indices past the
/// outputs of a sparse categorical loss; through aliases,
/// `tensorflow.keras` paths and lists filled in loops.
#[test]
fn keras_utilities_and_data() {
    family("keras_utilities_and_data.json");
}

/// String options pandas checks before it works: axis names (and a Series' one axis) of every
/// method with an `axis` parameter, join kinds of `merge`, `join` and `concat`, `dropna(how=)`,
/// `keep=`, `errors=` of the conversions, `rank`'s method; through aliases, names, loops and the
/// kernel's frames.
#[test]
fn pandas_options() {
    family("pandas_options.json");
}

/// Names a module lacks: misspellings of names numpy, pandas, Keras and Python's own modules
/// have (`np.arrange`, `pd.Dataframe`, `math.sqroot`), through aliases, from-imports, other
/// names, functions and loops; names TensorFlow 1, Keras 2 and earlier numpy releases had.
#[test]
fn module_names_misspelled_or_removed() {
    family("module_names.json");
}

/// Functions named by strings that misspell a reduction, in `agg`, `aggregate`, `transform`,
/// `apply` of frames, Series and groupbys, lists, dicts, named aggregations and `pivot_table`.
#[test]
fn pandas_function_names_misspelled() {
    family("pandas_function_names.json");
}

/// What pandas calls or looks labels up in, given neither a dict nor a function:
/// `rename(columns=[...])`, `Series.map([...])`, `DataFrame.map({...})`, `Series.rename([...])`.
#[test]
fn pandas_mappers_of_the_wrong_kind() {
    family("pandas_mappers.json");
}

/// `statistics` functions given fewer data points than they need, and `random.sample` of a
/// range smaller than the sample.
#[test]
fn statistics_and_samples_of_too_little_data() {
    family("stdlib_data.json");
}

/// Keras 2's generator methods on a model: certain with Keras 3 (the kernel's release, or a
/// model of Keras 3's own classes), likely when the release is not known.
#[test]
fn keras_generator_methods_removed() {
    family("keras_removed_methods.json");
}

/// Rows `head`, `tail`, `nlargest` keep, then sampled or indexed; `sample` of more rows than
/// there are; numpy's joining functions given the arrays apart rather than in one sequence.
#[test]
fn rows_taken_sampled_and_arrays_joined() {
    family("rows_taken_and_joined.json");
}

/// What `fit` learns on other estimators, read of one whose class never has it
/// (`LinearRegression().feature_importances_`, a forest's `coef_`): built in the cell or held by
/// the kernel, fitted or not, in loops and the notebook's functions; certain with the kernel's
/// scikit-learn release, likely without it.
#[test]
fn sklearn_learnt_attributes_lacked() {
    family("sklearn_learnt_attributes_lacked.json");
}

/// What `fit` learns, read without its trailing underscore (`grid.best_params`, `model.coef`).
#[test]
fn sklearn_learnt_names_without_their_underscore() {
    family("sklearn_learnt_names.json");
}

/// A method of a frame or Series subscripted where it should be called (`df.groupby['a']`),
/// and `.iloc` given labels (`df.iloc[:, 'a']`).
#[test]
fn pandas_methods_subscripted_and_iloc_labels() {
    family("pandas_indexers_and_methods.json");
}

/// Columns a frame read from a file lost since (dropped, deleted, popped, renamed), though its
/// other columns are unknown: `df.drop(columns='c')` then `df['c']`, in this cell or an earlier one.
#[test]
fn pandas_columns_removed_from_frames_read() {
    family("pandas_removed_columns.json");
}

/// Sessions checked with no kernel to ask (a saved notebook from the command line): the cells'
/// code alone tells what ran, a frame a reader returned, labels dropped in place.
#[test]
fn offline_sessions_from_the_code_alone() {
    family("offline_sessions.json");
}

/// A method of a frame, Series, Index or numpy array used without its call (`df.isnull.sum()`,
/// `len(df.head)`, `arr.mean.round()`): a bound method has no such attribute, length or operator.
#[test]
fn library_methods_used_without_their_call() {
    family("methods_not_called.json");
}

/// Row numbers read as labels past the rows of a frame or Series whose labels are its row
/// numbers (`s[-1]`, `df.loc[len(df)]`, `df.at[3, 'a']` of 3 rows): KeyError.
#[test]
fn pandas_row_numbers_read_as_labels() {
    family("pandas_row_numbers.json");
}

/// What scikit-learn removed, from modules to keywords and methods (`sklearn.cross_validation`,
/// `load_boston`, `OneHotEncoder(sparse=...)`, `get_feature_names()`): certain when the kernel
/// runs a release without it, likely when it did not say which.
#[test]
fn sklearn_removed_modules_names_keywords_and_methods() {
    family("sklearn_removed_api.json");
}

#[test]
fn sklearn_fold_seeds() {
    family("sklearn_fold_seeds.json");
}

#[test]
fn pandas_integer_keys() {
    family("pandas_integer_keys.json");
}

#[test]
fn none_tests() {
    family("none_tests.json");
}

#[test]
fn pandas_positions() {
    family("pandas_positions.json");
}

#[test]
fn pandas_value_counts_names() {
    family("pandas_value_counts_names.json");
}

#[test]
fn keras_samples_and_channels() {
    family("keras_samples_and_channels.json");
}

#[test]
fn sklearn_search_grids() {
    family("sklearn_search_grids.json");
}

#[test]
fn sklearn_pipeline_features() {
    family("sklearn_pipeline_features.json");
}

/// What pandas objects of known kind refuse: a DataFrame of one value per column without an
/// index, or of a 3-D array; numpy's `reshape` on a Series (pandas removed it); text columns
/// compared with numbers (and numbers with text) by `<`, `>`, `<=`, `>=`; a Series of several
/// values given to `float()`, `int()` or `math`'s functions.
#[test]
fn pandas_values_by_kind() {
    family("pandas_values_by_kind.json");
}

/// `train_test_split` given a number by position (its sizes and seed are keywords only).
#[test]
fn sklearn_split_arguments() {
    family("sklearn_split_arguments.json");
}

/// `drop`, `rename` and `reindex` of a DataFrame told the axis twice: by `index=` / `columns=`
/// and by `axis=` (or labels beside `columns=`); pandas 3's check of `drop(columns=..., axis=1)`
/// is certain with the kernel's release, likely without it.
#[test]
fn pandas_axis_arguments() {
    family("pandas_axis_arguments.json");
}

/// MNIST's arrays as Keras's `load_data()` gives them (uint8 images of 28 x 28, labels 0 to 9)
/// reaching the rules without the kernel: divided in place, fed to a model built for flat rows,
/// to a one-hot loss, to scikit-learn, reshaped, one-hot encoded. Run under a stand-in of the
/// download (`scripts/verify_family_cases.py`).
#[test]
fn keras_datasets() {
    family("keras_datasets.json");
}

/// The toy datasets scikit-learn ships, loaded as a Bunch (`iris.data`, `digits['data']`) or as
/// `X, y` (`load_iris(return_X_y=True)`): their arrays reach the rules without the kernel
/// (features, samples, class labels).
#[test]
fn sklearn_toy_datasets() {
    family("sklearn_toy_datasets.json");
}
