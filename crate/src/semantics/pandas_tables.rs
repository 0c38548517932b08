//! Tables read off pandas 3.1.2 by `scripts/pandas_tables.py` (generated: edit the
//! script, not this file).

/// Public attributes of `pandas.DataFrame`, with those earlier releases had and the names of
/// Series attributes, space-separated (and around): `df.x` with one of these names is not a
/// column access.
pub(crate) const FRAME_ATTRIBUTES: &str = " T abs add add_prefix add_suffix agg aggregate align all any append apply applymap as_matrix asfreq asof assign astype at at_time attrs axes backfill between_time bfill bool boxplot case_when cat clip columns combine combine_first compare convert_dtypes convert_objects copy corr corrwith count cov cummax cummin cumprod cumsum describe diff div divide dot drop drop_duplicates droplevel dropna dt dtype dtypes duplicated empty eq equals eval ewm expanding explode ffill fillna filter first first_valid_index flags floordiv from_arrow from_dict from_records ftypes ge get get_dtype_counts get_value get_values groupby gt head hist iat idxmax idxmin iloc index infer_objects info insert interpolate is_copy isetitem isin isna isnull items iteritems iterrows itertuples ix join keys kurt kurtosis last last_valid_index le list loc lookup lt mad map mask max mean median melt memory_usage merge min mod mode mul multiply name ndim ne nlargest notna notnull nsmallest nunique pad pct_change pipe pivot pivot_table plot pop pow prod product quantile query radd rank rdiv reindex reindex_like rename rename_axis reorder_levels replace resample reset_index rfloordiv rmod rmul rolling round rpow rsub rtruediv sample select select_dtypes sem set_axis set_flags set_index set_value shape shift size skew slice_shift sort_index sort_values sparse squeeze stack std str struct style sub subtract sum swapaxes swaplevel tail take timetuple to_clipboard to_csv to_dense to_dict to_excel to_feather to_gbq to_hdf to_html to_iceberg to_json to_latex to_markdown to_numpy to_orc to_parquet to_period to_pickle to_records to_sparse to_sql to_stata to_string to_timestamp to_xarray to_xml transform transpose truediv truncate tshift tz_convert tz_localize unstack update value_counts values var where xs ";

/// The public methods of `pandas.DataFrame`, space-separated (and around): the attribute
/// of an instance is a bound method.
pub(crate) const FRAME_METHODS: &str = " abs add add_prefix add_suffix agg aggregate align all any apply asfreq asof assign astype at_time between_time bfill boxplot clip combine combine_first compare convert_dtypes copy corr corrwith count cov cummax cummin cumprod cumsum describe diff div divide dot drop drop_duplicates droplevel dropna duplicated eq equals eval ewm expanding explode ffill fillna filter first_valid_index floordiv from_arrow from_dict from_records ge get groupby gt head hist idxmax idxmin infer_objects info insert interpolate isetitem isin isna isnull items iterrows itertuples join keys kurt kurtosis last_valid_index le lt map mask max mean median melt memory_usage merge min mod mode mul multiply ne nlargest notna notnull nsmallest nunique pct_change pipe pivot pivot_table pop pow prod product quantile query radd rank rdiv reindex reindex_like rename rename_axis reorder_levels replace resample reset_index rfloordiv rmod rmul rolling round rpow rsub rtruediv sample select select_dtypes sem set_axis set_flags set_index shift skew sort_index sort_values squeeze stack std sub subtract sum swaplevel tail take to_clipboard to_csv to_dict to_excel to_feather to_hdf to_html to_iceberg to_json to_latex to_markdown to_numpy to_orc to_parquet to_period to_pickle to_records to_sql to_stata to_string to_timestamp to_xarray to_xml transform transpose truediv truncate tz_convert tz_localize unstack update value_counts var where xs ";

/// The public methods of `pandas.Series`, space-separated (and around): the attribute
/// of an instance is a bound method.
pub(crate) const SERIES_METHODS: &str = " abs add add_prefix add_suffix agg aggregate align all any apply argmax argmin argsort asfreq asof astype at_time autocorr between between_time bfill case_when clip combine combine_first compare convert_dtypes copy corr count cov cummax cummin cumprod cumsum describe diff div divide divmod dot drop drop_duplicates droplevel dropna duplicated eq equals ewm expanding explode factorize ffill fillna filter first_valid_index floordiv from_arrow ge get groupby gt head hist idxmax idxmin infer_objects info interpolate isin isna isnull item items keys kurt kurtosis last_valid_index le lt map mask max mean median memory_usage min mod mode mul multiply ne nlargest notna notnull nsmallest nunique pct_change pipe pop pow prod product quantile radd rank rdiv rdivmod reindex reindex_like rename rename_axis reorder_levels repeat replace resample reset_index rfloordiv rmod rmul rolling round rpow rsub rtruediv sample searchsorted sem set_axis set_flags shift skew sort_index sort_values squeeze std sub subtract sum swaplevel tail take to_clipboard to_csv to_dict to_excel to_frame to_hdf to_json to_latex to_list to_markdown to_numpy to_period to_pickle to_sql to_string to_timestamp to_xarray tolist transform transpose truediv truncate tz_convert tz_localize unique unstack update value_counts var where xs ";

/// The public methods of `pandas.Index`, space-separated (and around): the attribute
/// of an instance is a bound method.
pub(crate) const INDEX_METHODS: &str = " all any append argmax argmin argsort asof asof_locs astype copy delete diff difference drop drop_duplicates droplevel dropna duplicated equals factorize fillna get_indexer get_indexer_for get_indexer_non_unique get_level_values get_loc get_slice_bound groupby identical infer_objects insert intersection is_ isin isna isnull item join map max memory_usage min notna notnull nunique putmask ravel reindex rename repeat replace round searchsorted set_names shift slice_indexer slice_locs sort_values sortlevel symmetric_difference take to_flat_index to_frame to_list to_numpy to_series tolist transpose union unique value_counts view where ";

/// Top-level names of the `pandas` module that earlier releases had: the first major release
/// without it (each absent from this one) and what replaces it.
pub(crate) const REMOVED_MODULE_ATTRIBUTES: &[(&str, u32, &str)] = &[
    ("Float64Index", 2, "pd.Index(values, dtype='float64')"),
    ("Int64Index", 2, "pd.Index(values, dtype='int64')"),
    ("Panel", 2, "a DataFrame with a MultiIndex, or xarray"),
    ("Panel4D", 2, "xarray"),
    ("SparseArray", 2, "pd.arrays.SparseArray"),
    ("SparseDataFrame", 2, "a DataFrame of SparseDtype columns"),
    ("SparseSeries", 2, "a Series of a pd.SparseDtype"),
    ("TimeGrouper", 2, "pd.Grouper(freq=...)"),
    ("TimeSeries", 2, "pd.Series"),
    ("UInt64Index", 2, "pd.Index(values, dtype='uint64')"),
    ("WidePanel", 2, "a DataFrame with a MultiIndex, or xarray"),
    ("datetime", 2, "import datetime"),
    ("datetools", 2, "pd.tseries.offsets"),
    ("ewma", 1, ".ewm(...).mean()"),
    ("ewmcorr", 1, ".ewm(...).corr()"),
    ("ewmcov", 1, ".ewm(...).cov()"),
    ("ewmstd", 1, ".ewm(...).std()"),
    ("ewmvar", 1, ".ewm(...).var()"),
    ("expanding_apply", 1, ".expanding().apply()"),
    ("expanding_corr", 1, ".expanding().corr()"),
    ("expanding_count", 1, ".expanding().count()"),
    ("expanding_cov", 1, ".expanding().cov()"),
    ("expanding_kurt", 1, ".expanding().kurt()"),
    ("expanding_max", 1, ".expanding().max()"),
    ("expanding_mean", 1, ".expanding().mean()"),
    ("expanding_median", 1, ".expanding().median()"),
    ("expanding_min", 1, ".expanding().min()"),
    ("expanding_quantile", 1, ".expanding().quantile()"),
    ("expanding_skew", 1, ".expanding().skew()"),
    ("expanding_std", 1, ".expanding().std()"),
    ("expanding_sum", 1, ".expanding().sum()"),
    ("expanding_var", 1, ".expanding().var()"),
    ("np", 2, "import numpy as np"),
    ("ordered_merge", 2, "pd.merge_ordered"),
    ("rolling_apply", 1, ".rolling(window).apply()"),
    ("rolling_corr", 1, ".rolling(window).corr()"),
    ("rolling_count", 1, ".rolling(window).count()"),
    ("rolling_cov", 1, ".rolling(window).cov()"),
    ("rolling_kurt", 1, ".rolling(window).kurt()"),
    ("rolling_max", 1, ".rolling(window).max()"),
    ("rolling_mean", 1, ".rolling(window).mean()"),
    ("rolling_median", 1, ".rolling(window).median()"),
    ("rolling_min", 1, ".rolling(window).min()"),
    ("rolling_quantile", 1, ".rolling(window).quantile()"),
    ("rolling_skew", 1, ".rolling(window).skew()"),
    ("rolling_std", 1, ".rolling(window).std()"),
    ("rolling_sum", 1, ".rolling(window).sum()"),
    ("rolling_var", 1, ".rolling(window).var()"),
    ("rolling_window", 1, ".rolling(window, win_type=...)"),
    ("scatter_matrix", 2, "pd.plotting.scatter_matrix"),
];
