//! Tables read off scikit-learn 1.9.1 by `scripts/sklearn_tables.py` (generated: edit the script, not this file).

/// The strings `scoring=` accepts: `get_scorer_names()` and names of earlier releases.
pub(crate) const SCORER_NAMES: &[&str] = &[
    "accuracy",
    "adjusted_mutual_info_score",
    "adjusted_rand_score",
    "average_precision",
    "balanced_accuracy",
    "brier_score_loss",
    "completeness_score",
    "d2_absolute_error_score",
    "d2_brier_score",
    "d2_log_loss_score",
    "explained_variance",
    "f1",
    "f1_macro",
    "f1_micro",
    "f1_samples",
    "f1_weighted",
    "fowlkes_mallows_score",
    "homogeneity_score",
    "jaccard",
    "jaccard_macro",
    "jaccard_micro",
    "jaccard_samples",
    "jaccard_weighted",
    "log_loss",
    "matthews_corrcoef",
    "max_error",
    "mean_absolute_error",
    "mean_squared_error",
    "mean_squared_log_error",
    "median_absolute_error",
    "mutual_info_score",
    "neg_brier_score",
    "neg_log_loss",
    "neg_max_error",
    "neg_mean_absolute_error",
    "neg_mean_absolute_percentage_error",
    "neg_mean_gamma_deviance",
    "neg_mean_poisson_deviance",
    "neg_mean_squared_error",
    "neg_mean_squared_log_error",
    "neg_median_absolute_error",
    "neg_negative_likelihood_ratio",
    "neg_root_mean_squared_error",
    "neg_root_mean_squared_log_error",
    "normalized_mutual_info_score",
    "positive_likelihood_ratio",
    "precision",
    "precision_macro",
    "precision_micro",
    "precision_samples",
    "precision_weighted",
    "r2",
    "rand_score",
    "recall",
    "recall_macro",
    "recall_micro",
    "recall_samples",
    "recall_weighted",
    "roc_auc",
    "roc_auc_ovo",
    "roc_auc_ovo_weighted",
    "roc_auc_ovr",
    "roc_auc_ovr_weighted",
    "top_k_accuracy",
    "v_measure_score",
];

/// Classifiers and regressors whose `fit` (default parameters) raises ValueError when X and y
/// have different numbers of samples (Found input variables with inconsistent numbers of samples),
/// and raises when given X without y.
pub(crate) const SAMPLE_CHECKED: &[&str] = &[
    "ARDRegression",
    "AdaBoostClassifier",
    "AdaBoostRegressor",
    "BaggingClassifier",
    "BaggingRegressor",
    "BayesianRidge",
    "BernoulliNB",
    "CalibratedClassifierCV",
    "CategoricalNB",
    "ComplementNB",
    "DecisionTreeClassifier",
    "DecisionTreeRegressor",
    "DummyClassifier",
    "DummyRegressor",
    "ElasticNet",
    "ElasticNetCV",
    "ExtraTreeClassifier",
    "ExtraTreeRegressor",
    "ExtraTreesClassifier",
    "ExtraTreesRegressor",
    "GaussianNB",
    "GaussianProcessClassifier",
    "GaussianProcessRegressor",
    "GradientBoostingClassifier",
    "GradientBoostingRegressor",
    "HistGradientBoostingClassifier",
    "HistGradientBoostingRegressor",
    "HuberRegressor",
    "KNeighborsClassifier",
    "KNeighborsRegressor",
    "KernelRidge",
    "LabelPropagation",
    "LabelSpreading",
    "Lars",
    "LarsCV",
    "Lasso",
    "LassoCV",
    "LassoLars",
    "LassoLarsCV",
    "LassoLarsIC",
    "LinearDiscriminantAnalysis",
    "LinearRegression",
    "LinearSVC",
    "LinearSVR",
    "LogisticRegression",
    "LogisticRegressionCV",
    "MLPClassifier",
    "MLPRegressor",
    "MultinomialNB",
    "NearestCentroid",
    "NuSVC",
    "NuSVR",
    "OrthogonalMatchingPursuit",
    "OrthogonalMatchingPursuitCV",
    "PLSRegression",
    "PassiveAggressiveClassifier",
    "PassiveAggressiveRegressor",
    "Perceptron",
    "PoissonRegressor",
    "QuadraticDiscriminantAnalysis",
    "QuantileRegressor",
    "RANSACRegressor",
    "RadiusNeighborsClassifier",
    "RadiusNeighborsRegressor",
    "RandomForestClassifier",
    "RandomForestRegressor",
    "Ridge",
    "RidgeCV",
    "RidgeClassifier",
    "RidgeClassifierCV",
    "SGDClassifier",
    "SGDRegressor",
    "SVC",
    "SVR",
    "TheilSenRegressor",
    "TransformedTargetRegressor",
    "TweedieRegressor",
];

/// Estimators that validate X as a 2-D numeric array: ValueError on text and on 1-D X.
pub(crate) const NUMERIC_2D: &[&str] = &[
    "ARDRegression",
    "AdditiveChi2Sampler",
    "AffinityPropagation",
    "AgglomerativeClustering",
    "BayesianGaussianMixture",
    "BayesianRidge",
    "BernoulliNB",
    "BernoulliRBM",
    "Binarizer",
    "Birch",
    "BisectingKMeans",
    "CategoricalNB",
    "ClassicalMDS",
    "ComplementNB",
    "DBSCAN",
    "DecisionTreeClassifier",
    "DecisionTreeRegressor",
    "DictionaryLearning",
    "ElasticNet",
    "ElasticNetCV",
    "EllipticEnvelope",
    "EmpiricalCovariance",
    "ExtraTreeClassifier",
    "ExtraTreeRegressor",
    "ExtraTreesClassifier",
    "ExtraTreesRegressor",
    "FactorAnalysis",
    "FastICA",
    "FeatureAgglomeration",
    "GammaRegressor",
    "GaussianMixture",
    "GaussianNB",
    "GaussianProcessClassifier",
    "GaussianProcessRegressor",
    "GenericUnivariateSelect",
    "GradientBoostingClassifier",
    "GradientBoostingRegressor",
    "GraphicalLasso",
    "GraphicalLassoCV",
    "HDBSCAN",
    "HistGradientBoostingClassifier",
    "HistGradientBoostingRegressor",
    "HuberRegressor",
    "IncrementalPCA",
    "IsolationForest",
    "Isomap",
    "KBinsDiscretizer",
    "KMeans",
    "KNNImputer",
    "KNeighborsClassifier",
    "KNeighborsRegressor",
    "KNeighborsTransformer",
    "KernelDensity",
    "KernelPCA",
    "KernelRidge",
    "LabelPropagation",
    "LabelSpreading",
    "Lars",
    "LarsCV",
    "Lasso",
    "LassoCV",
    "LassoLars",
    "LassoLarsCV",
    "LassoLarsIC",
    "LatentDirichletAllocation",
    "LedoitWolf",
    "LinearDiscriminantAnalysis",
    "LinearRegression",
    "LinearSVC",
    "LinearSVR",
    "LocalOutlierFactor",
    "LocallyLinearEmbedding",
    "LogisticRegression",
    "LogisticRegressionCV",
    "MDS",
    "MLPClassifier",
    "MLPRegressor",
    "MaxAbsScaler",
    "MeanShift",
    "MinCovDet",
    "MinMaxScaler",
    "MiniBatchDictionaryLearning",
    "MiniBatchKMeans",
    "MiniBatchNMF",
    "MiniBatchSparsePCA",
    "MultinomialNB",
    "NMF",
    "NearestCentroid",
    "NearestNeighbors",
    "NeighborhoodComponentsAnalysis",
    "Normalizer",
    "NuSVC",
    "NuSVR",
    "Nystroem",
    "OAS",
    "OPTICS",
    "OneClassSVM",
    "OrthogonalMatchingPursuit",
    "OrthogonalMatchingPursuitCV",
    "PCA",
    "PLSRegression",
    "PassiveAggressiveClassifier",
    "PassiveAggressiveRegressor",
    "Perceptron",
    "PoissonRegressor",
    "PolynomialCountSketch",
    "PolynomialFeatures",
    "PowerTransformer",
    "QuadraticDiscriminantAnalysis",
    "QuantileRegressor",
    "QuantileTransformer",
    "RBFSampler",
    "RadiusNeighborsClassifier",
    "RadiusNeighborsRegressor",
    "RadiusNeighborsTransformer",
    "RandomForestClassifier",
    "RandomForestRegressor",
    "RandomTreesEmbedding",
    "Ridge",
    "RidgeCV",
    "RidgeClassifier",
    "RidgeClassifierCV",
    "RobustScaler",
    "SGDClassifier",
    "SGDOneClassSVM",
    "SGDRegressor",
    "SVC",
    "SVR",
    "SelectFdr",
    "SelectFpr",
    "SelectFwe",
    "SelectKBest",
    "SelectPercentile",
    "ShrunkCovariance",
    "SkewedChi2Sampler",
    "SparsePCA",
    "SpectralBiclustering",
    "SpectralClustering",
    "SpectralCoclustering",
    "SpectralEmbedding",
    "SplineTransformer",
    "StandardScaler",
    "TSNE",
    "TfidfTransformer",
    "TheilSenRegressor",
    "TruncatedSVD",
    "TweedieRegressor",
    "VarianceThreshold",
];

/// Of NUMERIC_2D, those whose `allow_nan` tag says they take NaN in X.
pub(crate) const ACCEPTS_NAN: &[&str] = &[
    "DecisionTreeClassifier",
    "DecisionTreeRegressor",
    "ExtraTreeClassifier",
    "ExtraTreeRegressor",
    "ExtraTreesClassifier",
    "ExtraTreesRegressor",
    "HDBSCAN",
    "HistGradientBoostingClassifier",
    "HistGradientBoostingRegressor",
    "IsolationForest",
    "KNNImputer",
    "MaxAbsScaler",
    "MinMaxScaler",
    "PowerTransformer",
    "QuantileTransformer",
    "RandomForestClassifier",
    "RandomForestRegressor",
    "RandomTreesEmbedding",
    "RobustScaler",
    "StandardScaler",
    "VarianceThreshold",
];

/// Estimators that take text but validate X as 2-D: ValueError on 1-D X (the encoders).
pub(crate) const TEXT_2D: &[&str] = &[
    "MissingIndicator",
    "OneHotEncoder",
    "OrdinalEncoder",
    "SimpleImputer",
    "TargetEncoder",
];

/// Which of `predict`, `predict_proba`, `predict_log_proba`, `decision_function`, `transform`,
/// `inverse_transform` and `score` each estimator's class defines (estimators that build with
/// default parameters).
pub(crate) const OUTPUT_METHODS: &[(&str, &[&str])] = &[
    ("ARDRegression", &["predict", "score"]),
    (
        "AdaBoostClassifier",
        &[
            "predict",
            "predict_proba",
            "predict_log_proba",
            "decision_function",
            "score",
        ],
    ),
    ("AdaBoostRegressor", &["predict", "score"]),
    ("AdditiveChi2Sampler", &["transform"]),
    ("AffinityPropagation", &["predict"]),
    ("AgglomerativeClustering", &[]),
    (
        "BaggingClassifier",
        &[
            "predict",
            "predict_proba",
            "predict_log_proba",
            "decision_function",
            "score",
        ],
    ),
    ("BaggingRegressor", &["predict", "score"]),
    (
        "BayesianGaussianMixture",
        &["predict", "predict_proba", "score"],
    ),
    ("BayesianRidge", &["predict", "score"]),
    (
        "BernoulliNB",
        &["predict", "predict_proba", "predict_log_proba", "score"],
    ),
    ("BernoulliRBM", &["transform"]),
    ("Binarizer", &["transform"]),
    ("Birch", &["predict", "transform"]),
    ("BisectingKMeans", &["predict", "transform", "score"]),
    (
        "CCA",
        &["predict", "transform", "inverse_transform", "score"],
    ),
    (
        "CalibratedClassifierCV",
        &["predict", "predict_proba", "score"],
    ),
    (
        "CategoricalNB",
        &["predict", "predict_proba", "predict_log_proba", "score"],
    ),
    ("ClassicalMDS", &[]),
    (
        "ComplementNB",
        &["predict", "predict_proba", "predict_log_proba", "score"],
    ),
    ("CountVectorizer", &["transform", "inverse_transform"]),
    ("DBSCAN", &[]),
    (
        "DecisionTreeClassifier",
        &["predict", "predict_proba", "predict_log_proba", "score"],
    ),
    ("DecisionTreeRegressor", &["predict", "score"]),
    ("DictVectorizer", &["transform", "inverse_transform"]),
    ("DictionaryLearning", &["transform", "inverse_transform"]),
    (
        "DummyClassifier",
        &["predict", "predict_proba", "predict_log_proba", "score"],
    ),
    ("DummyRegressor", &["predict", "score"]),
    ("ElasticNet", &["predict", "score"]),
    ("ElasticNetCV", &["predict", "score"]),
    (
        "EllipticEnvelope",
        &["predict", "decision_function", "score"],
    ),
    ("EmpiricalCovariance", &["score"]),
    (
        "ExtraTreeClassifier",
        &["predict", "predict_proba", "predict_log_proba", "score"],
    ),
    ("ExtraTreeRegressor", &["predict", "score"]),
    (
        "ExtraTreesClassifier",
        &["predict", "predict_proba", "predict_log_proba", "score"],
    ),
    ("ExtraTreesRegressor", &["predict", "score"]),
    ("FactorAnalysis", &["transform", "score"]),
    ("FastICA", &["transform", "inverse_transform"]),
    ("FeatureAgglomeration", &["transform", "inverse_transform"]),
    ("FeatureHasher", &["transform"]),
    ("FunctionTransformer", &["transform", "inverse_transform"]),
    ("GammaRegressor", &["predict", "score"]),
    ("GaussianMixture", &["predict", "predict_proba", "score"]),
    (
        "GaussianNB",
        &["predict", "predict_proba", "predict_log_proba", "score"],
    ),
    (
        "GaussianProcessClassifier",
        &["predict", "predict_proba", "score"],
    ),
    ("GaussianProcessRegressor", &["predict", "score"]),
    (
        "GaussianRandomProjection",
        &["transform", "inverse_transform"],
    ),
    (
        "GenericUnivariateSelect",
        &["transform", "inverse_transform"],
    ),
    (
        "GradientBoostingClassifier",
        &[
            "predict",
            "predict_proba",
            "predict_log_proba",
            "decision_function",
            "score",
        ],
    ),
    ("GradientBoostingRegressor", &["predict", "score"]),
    ("GraphicalLasso", &["score"]),
    ("GraphicalLassoCV", &["score"]),
    ("HDBSCAN", &[]),
    ("HashingVectorizer", &["transform"]),
    (
        "HistGradientBoostingClassifier",
        &["predict", "predict_proba", "decision_function", "score"],
    ),
    ("HistGradientBoostingRegressor", &["predict", "score"]),
    ("HuberRegressor", &["predict", "score"]),
    ("IncrementalPCA", &["transform", "inverse_transform"]),
    ("IsolationForest", &["predict", "decision_function"]),
    ("Isomap", &["transform"]),
    ("IsotonicRegression", &["predict", "transform", "score"]),
    ("KBinsDiscretizer", &["transform", "inverse_transform"]),
    ("KMeans", &["predict", "transform", "score"]),
    ("KNNImputer", &["transform"]),
    (
        "KNeighborsClassifier",
        &["predict", "predict_proba", "score"],
    ),
    ("KNeighborsRegressor", &["predict", "score"]),
    ("KNeighborsTransformer", &["transform"]),
    ("KernelCenterer", &["transform"]),
    ("KernelDensity", &["score"]),
    ("KernelPCA", &["transform", "inverse_transform"]),
    ("KernelRidge", &["predict", "score"]),
    ("LabelBinarizer", &["transform", "inverse_transform"]),
    ("LabelEncoder", &["transform", "inverse_transform"]),
    ("LabelPropagation", &["predict", "predict_proba", "score"]),
    ("LabelSpreading", &["predict", "predict_proba", "score"]),
    ("Lars", &["predict", "score"]),
    ("LarsCV", &["predict", "score"]),
    ("Lasso", &["predict", "score"]),
    ("LassoCV", &["predict", "score"]),
    ("LassoLars", &["predict", "score"]),
    ("LassoLarsCV", &["predict", "score"]),
    ("LassoLarsIC", &["predict", "score"]),
    ("LatentDirichletAllocation", &["transform", "score"]),
    ("LedoitWolf", &["score"]),
    (
        "LinearDiscriminantAnalysis",
        &[
            "predict",
            "predict_proba",
            "predict_log_proba",
            "decision_function",
            "transform",
            "score",
        ],
    ),
    ("LinearRegression", &["predict", "score"]),
    ("LinearSVC", &["predict", "decision_function", "score"]),
    ("LinearSVR", &["predict", "score"]),
    ("LocalOutlierFactor", &["predict", "decision_function"]),
    ("LocallyLinearEmbedding", &["transform"]),
    (
        "LogisticRegression",
        &[
            "predict",
            "predict_proba",
            "predict_log_proba",
            "decision_function",
            "score",
        ],
    ),
    (
        "LogisticRegressionCV",
        &[
            "predict",
            "predict_proba",
            "predict_log_proba",
            "decision_function",
            "score",
        ],
    ),
    ("MDS", &[]),
    (
        "MLPClassifier",
        &["predict", "predict_proba", "predict_log_proba", "score"],
    ),
    ("MLPRegressor", &["predict", "score"]),
    ("MaxAbsScaler", &["transform", "inverse_transform"]),
    ("MeanShift", &["predict"]),
    ("MinCovDet", &["score"]),
    ("MinMaxScaler", &["transform", "inverse_transform"]),
    (
        "MiniBatchDictionaryLearning",
        &["transform", "inverse_transform"],
    ),
    ("MiniBatchKMeans", &["predict", "transform", "score"]),
    ("MiniBatchNMF", &["transform", "inverse_transform"]),
    ("MiniBatchSparsePCA", &["transform", "inverse_transform"]),
    ("MissingIndicator", &["transform"]),
    ("MultiLabelBinarizer", &["transform", "inverse_transform"]),
    ("MultiTaskElasticNet", &["predict", "score"]),
    ("MultiTaskElasticNetCV", &["predict", "score"]),
    ("MultiTaskLasso", &["predict", "score"]),
    ("MultiTaskLassoCV", &["predict", "score"]),
    (
        "MultinomialNB",
        &["predict", "predict_proba", "predict_log_proba", "score"],
    ),
    ("NMF", &["transform", "inverse_transform"]),
    (
        "NearestCentroid",
        &[
            "predict",
            "predict_proba",
            "predict_log_proba",
            "decision_function",
            "score",
        ],
    ),
    ("NearestNeighbors", &[]),
    ("NeighborhoodComponentsAnalysis", &["transform"]),
    ("Normalizer", &["transform"]),
    (
        "NuSVC",
        &[
            "predict",
            "predict_proba",
            "predict_log_proba",
            "decision_function",
            "score",
        ],
    ),
    ("NuSVR", &["predict", "score"]),
    ("Nystroem", &["transform"]),
    ("OAS", &["score"]),
    ("OPTICS", &[]),
    ("OneClassSVM", &["predict", "decision_function"]),
    ("OneHotEncoder", &["transform", "inverse_transform"]),
    ("OrdinalEncoder", &["transform", "inverse_transform"]),
    ("OrthogonalMatchingPursuit", &["predict", "score"]),
    ("OrthogonalMatchingPursuitCV", &["predict", "score"]),
    ("PCA", &["transform", "inverse_transform", "score"]),
    (
        "PLSCanonical",
        &["predict", "transform", "inverse_transform", "score"],
    ),
    (
        "PLSRegression",
        &["predict", "transform", "inverse_transform", "score"],
    ),
    ("PLSSVD", &["transform"]),
    (
        "PassiveAggressiveClassifier",
        &["predict", "decision_function", "score"],
    ),
    ("PassiveAggressiveRegressor", &["predict", "score"]),
    ("PatchExtractor", &["transform"]),
    ("Perceptron", &["predict", "decision_function", "score"]),
    ("PoissonRegressor", &["predict", "score"]),
    ("PolynomialCountSketch", &["transform"]),
    ("PolynomialFeatures", &["transform"]),
    ("PowerTransformer", &["transform", "inverse_transform"]),
    (
        "QuadraticDiscriminantAnalysis",
        &[
            "predict",
            "predict_proba",
            "predict_log_proba",
            "decision_function",
            "score",
        ],
    ),
    ("QuantileRegressor", &["predict", "score"]),
    ("QuantileTransformer", &["transform", "inverse_transform"]),
    ("RANSACRegressor", &["predict", "score"]),
    ("RBFSampler", &["transform"]),
    (
        "RadiusNeighborsClassifier",
        &["predict", "predict_proba", "score"],
    ),
    ("RadiusNeighborsRegressor", &["predict", "score"]),
    ("RadiusNeighborsTransformer", &["transform"]),
    (
        "RandomForestClassifier",
        &["predict", "predict_proba", "predict_log_proba", "score"],
    ),
    ("RandomForestRegressor", &["predict", "score"]),
    ("RandomTreesEmbedding", &["transform"]),
    ("Ridge", &["predict", "score"]),
    ("RidgeCV", &["predict", "score"]),
    (
        "RidgeClassifier",
        &["predict", "decision_function", "score"],
    ),
    (
        "RidgeClassifierCV",
        &["predict", "decision_function", "score"],
    ),
    ("RobustScaler", &["transform", "inverse_transform"]),
    (
        "SGDClassifier",
        &[
            "predict",
            "predict_proba",
            "predict_log_proba",
            "decision_function",
            "score",
        ],
    ),
    ("SGDOneClassSVM", &["predict", "decision_function"]),
    ("SGDRegressor", &["predict", "score"]),
    (
        "SVC",
        &[
            "predict",
            "predict_proba",
            "predict_log_proba",
            "decision_function",
            "score",
        ],
    ),
    ("SVR", &["predict", "score"]),
    ("SelectFdr", &["transform", "inverse_transform"]),
    ("SelectFpr", &["transform", "inverse_transform"]),
    ("SelectFwe", &["transform", "inverse_transform"]),
    ("SelectKBest", &["transform", "inverse_transform"]),
    ("SelectPercentile", &["transform", "inverse_transform"]),
    (
        "SelfTrainingClassifier",
        &[
            "predict",
            "predict_proba",
            "predict_log_proba",
            "decision_function",
            "score",
        ],
    ),
    ("ShrunkCovariance", &["score"]),
    ("SimpleImputer", &["transform", "inverse_transform"]),
    ("SkewedChi2Sampler", &["transform"]),
    ("SparsePCA", &["transform", "inverse_transform"]),
    (
        "SparseRandomProjection",
        &["transform", "inverse_transform"],
    ),
    ("SpectralBiclustering", &[]),
    ("SpectralClustering", &[]),
    ("SpectralCoclustering", &[]),
    ("SpectralEmbedding", &[]),
    ("SplineTransformer", &["transform"]),
    ("StandardScaler", &["transform", "inverse_transform"]),
    ("TSNE", &[]),
    ("TargetEncoder", &["transform"]),
    ("TfidfTransformer", &["transform"]),
    ("TfidfVectorizer", &["transform", "inverse_transform"]),
    ("TheilSenRegressor", &["predict", "score"]),
    ("TransformedTargetRegressor", &["predict", "score"]),
    ("TruncatedSVD", &["transform", "inverse_transform"]),
    ("TweedieRegressor", &["predict", "score"]),
    ("VarianceThreshold", &["transform", "inverse_transform"]),
];

/// (class, method, flag): the class defines the method, but an instance has it only when the
/// boolean parameter `flag`, False by default ('deprecated' for SVC's probability since 1.8),
/// is True.
pub(crate) const METHOD_FLAGS: &[(&str, &str, &str)] = &[
    ("LocalOutlierFactor", "decision_function", "novelty"),
    ("LocalOutlierFactor", "predict", "novelty"),
    ("NuSVC", "predict_log_proba", "probability"),
    ("NuSVC", "predict_proba", "probability"),
    ("SVC", "predict_log_proba", "probability"),
    ("SVC", "predict_proba", "probability"),
];

/// Functions of `sklearn.metrics` whose first two arguments must have as many samples:
/// ValueError: Found input variables with inconsistent numbers of samples.
pub(crate) const CONSISTENT_LENGTH_METRICS: &[&str] = &[
    "accuracy_score",
    "adjusted_mutual_info_score",
    "adjusted_rand_score",
    "auc",
    "average_precision_score",
    "balanced_accuracy_score",
    "brier_score_loss",
    "class_likelihood_ratios",
    "classification_report",
    "cohen_kappa_score",
    "completeness_score",
    "confusion_matrix",
    "confusion_matrix_at_thresholds",
    "d2_absolute_error_score",
    "d2_brier_score",
    "d2_log_loss_score",
    "d2_pinball_score",
    "d2_tweedie_score",
    "dcg_score",
    "det_curve",
    "explained_variance_score",
    "f1_score",
    "fowlkes_mallows_score",
    "hamming_loss",
    "hinge_loss",
    "homogeneity_completeness_v_measure",
    "homogeneity_score",
    "jaccard_score",
    "label_ranking_average_precision_score",
    "label_ranking_loss",
    "log_loss",
    "matthews_corrcoef",
    "max_error",
    "mean_absolute_error",
    "mean_absolute_percentage_error",
    "mean_gamma_deviance",
    "mean_pinball_loss",
    "mean_poisson_deviance",
    "mean_squared_error",
    "mean_squared_log_error",
    "mean_tweedie_deviance",
    "median_absolute_error",
    "multilabel_confusion_matrix",
    "mutual_info_score",
    "ndcg_score",
    "normalized_mutual_info_score",
    "pair_confusion_matrix",
    "precision_recall_curve",
    "precision_recall_fscore_support",
    "precision_score",
    "r2_score",
    "rand_score",
    "recall_score",
    "roc_auc_score",
    "roc_curve",
    "root_mean_squared_error",
    "root_mean_squared_log_error",
    "top_k_accuracy_score",
    "v_measure_score",
    "zero_one_loss",
];

/// `Class parameter options` lines, sorted: the strings an estimator's parameter takes
/// (`_parameter_constraints`); `fit` raises InvalidParameterError for any other.
pub(crate) const STRING_OPTIONS: &str = "\
AdaBoostRegressor loss exponential,linear,square
AffinityPropagation affinity euclidean,precomputed
AgglomerativeClustering compute_full_tree auto
AgglomerativeClustering linkage average,complete,single,ward
AgglomerativeClustering metric braycurtis,canberra,chebyshev,cityblock,correlation,cosine,dice,euclidean,hamming,haversine,jaccard,l1,l2,mahalanobis,manhattan,matching,minkowski,nan_euclidean,precomputed,rogerstanimoto,russellrao,seuclidean,sokalsneath,sqeuclidean,wminkowski,yule
BayesianGaussianMixture covariance_type diag,full,spherical,tied
BayesianGaussianMixture init_params k-means++,kmeans,random,random_from_data
BayesianGaussianMixture weight_concentration_prior_type dirichlet_distribution,dirichlet_process
BisectingKMeans algorithm elkan,lloyd
BisectingKMeans bisecting_strategy biggest_inertia,largest_cluster
BisectingKMeans init k-means++,random
CalibratedClassifierCV ensemble auto
CalibratedClassifierCV method isotonic,sigmoid,temperature
ClassifierChain chain_method decision_function,predict,predict_log_proba,predict_proba
ClassifierChain cv prefit
ColumnTransformer remainder drop,passthrough
CountVectorizer analyzer char,char_wb,word
CountVectorizer decode_error ignore,replace,strict
CountVectorizer input content,file,filename
CountVectorizer stop_words english
CountVectorizer strip_accents ascii,unicode
DBSCAN algorithm auto,ball_tree,brute,kd_tree
DBSCAN metric braycurtis,canberra,chebyshev,cityblock,correlation,cosine,dice,euclidean,hamming,haversine,jaccard,l1,l2,mahalanobis,manhattan,matching,minkowski,nan_euclidean,precomputed,rogerstanimoto,russellrao,seuclidean,sokalsneath,sqeuclidean,wminkowski,yule
DecisionTreeClassifier class_weight balanced
DecisionTreeClassifier criterion entropy,gini,log_loss
DecisionTreeClassifier max_features log2,sqrt
DecisionTreeClassifier splitter best,random
DecisionTreeRegressor criterion absolute_error,poisson,squared_error
DecisionTreeRegressor max_features log2,sqrt
DecisionTreeRegressor splitter best,random
DictionaryLearning fit_algorithm cd,lars
DictionaryLearning transform_algorithm lars,lasso_cd,lasso_lars,omp,threshold
DummyClassifier strategy constant,most_frequent,prior,stratified,uniform
DummyRegressor strategy constant,mean,median,quantile
ElasticNet selection cyclic,random
ElasticNetCV selection cyclic,random
ExtraTreeClassifier class_weight balanced
ExtraTreeClassifier criterion entropy,gini,log_loss
ExtraTreeClassifier max_features log2,sqrt
ExtraTreeClassifier splitter best,random
ExtraTreeRegressor criterion absolute_error,poisson,squared_error
ExtraTreeRegressor max_features log2,sqrt
ExtraTreeRegressor splitter best,random
ExtraTreesClassifier class_weight balanced,balanced_subsample
ExtraTreesClassifier criterion entropy,gini,log_loss
ExtraTreesClassifier max_features log2,sqrt
ExtraTreesRegressor criterion absolute_error,poisson,squared_error
ExtraTreesRegressor max_features log2,sqrt
FactorAnalysis rotation quartimax,varimax
FactorAnalysis svd_method lapack,randomized
FastICA algorithm deflation,parallel
FastICA fun cube,exp,logcosh
FastICA whiten arbitrary-variance,unit-variance
FastICA whiten_solver eigh,svd
FeatureAgglomeration compute_full_tree auto
FeatureAgglomeration linkage average,complete,single,ward
FeatureAgglomeration metric braycurtis,canberra,chebyshev,cityblock,correlation,cosine,dice,euclidean,hamming,haversine,jaccard,l1,l2,mahalanobis,manhattan,matching,minkowski,nan_euclidean,precomputed,rogerstanimoto,russellrao,seuclidean,sokalsneath,sqeuclidean,wminkowski,yule
FeatureHasher input_type dict,pair,string
FixedThresholdClassifier response_method auto,decision_function,predict_proba
FixedThresholdClassifier threshold auto
FunctionTransformer feature_names_out one-to-one
GammaRegressor solver lbfgs,newton-cholesky
GaussianMixture covariance_type diag,full,spherical,tied
GaussianMixture init_params k-means++,kmeans,random,random_from_data
GaussianProcessClassifier multi_class one_vs_one,one_vs_rest
GaussianProcessClassifier optimizer fmin_l_bfgs_b
GaussianProcessRegressor optimizer fmin_l_bfgs_b
GaussianRandomProjection n_components auto
GenericUnivariateSelect mode fdr,fpr,fwe,k_best,percentile
GenericUnivariateSelect param all
GradientBoostingClassifier criterion deprecated,friedman_mse,squared_error
GradientBoostingClassifier init zero
GradientBoostingClassifier loss exponential,log_loss
GradientBoostingClassifier max_features log2,sqrt
GradientBoostingRegressor criterion deprecated,friedman_mse,squared_error
GradientBoostingRegressor init zero
GradientBoostingRegressor loss absolute_error,huber,quantile,squared_error
GradientBoostingRegressor max_features log2,sqrt
GraphicalLasso covariance precomputed
GraphicalLasso mode cd,lars
GraphicalLassoCV mode cd,lars
GridSearchCV error_score raise
HDBSCAN algorithm auto,ball_tree,brute,kd_tree
HDBSCAN cluster_selection_method eom,leaf
HDBSCAN copy warn
HDBSCAN metric braycurtis,canberra,chebyshev,cityblock,correlation,cosine,dice,euclidean,hamming,haversine,infinity,jaccard,l1,l2,mahalanobis,manhattan,matching,minkowski,nan_euclidean,p,precomputed,pyfunc,rogerstanimoto,russellrao,seuclidean,sokalmichener,sokalsneath,sqeuclidean,wminkowski,yule
HDBSCAN store_centers both,centroid,medoid
HashingVectorizer analyzer char,char_wb,word
HashingVectorizer decode_error ignore,replace,strict
HashingVectorizer input content,file,filename
HashingVectorizer norm l1,l2
HashingVectorizer stop_words english
HashingVectorizer strip_accents ascii,unicode
HistGradientBoostingClassifier class_weight balanced
HistGradientBoostingClassifier early_stopping auto
HistGradientBoostingClassifier interaction_cst no_interactions,pairwise
HistGradientBoostingClassifier loss log_loss
HistGradientBoostingRegressor early_stopping auto
HistGradientBoostingRegressor interaction_cst no_interactions,pairwise
HistGradientBoostingRegressor loss absolute_error,gamma,poisson,quantile,squared_error
IsolationForest contamination auto
IsolationForest max_samples auto
Isomap eigen_solver arpack,auto,dense
Isomap metric braycurtis,canberra,chebyshev,cityblock,correlation,cosine,dice,euclidean,hamming,haversine,jaccard,l1,l2,mahalanobis,manhattan,matching,minkowski,nan_euclidean,precomputed,rogerstanimoto,russellrao,seuclidean,sokalsneath,sqeuclidean,wminkowski,yule
Isomap neighbors_algorithm auto,ball_tree,brute,kd_tree
Isomap path_method D,FW,auto
IsotonicRegression increasing auto
IsotonicRegression out_of_bounds clip,nan,raise
KBinsDiscretizer encode onehot,onehot-dense,ordinal
KBinsDiscretizer quantile_method averaged_inverted_cdf,closest_observation,hazen,interpolated_inverted_cdf,inverted_cdf,linear,median_unbiased,normal_unbiased,weibull
KBinsDiscretizer strategy kmeans,quantile,uniform
KMeans algorithm elkan,lloyd
KMeans n_init auto
KNNImputer metric nan_euclidean
KNNImputer weights distance,uniform
KNeighborsClassifier algorithm auto,ball_tree,brute,kd_tree
KNeighborsClassifier metric braycurtis,canberra,chebyshev,cityblock,correlation,cosine,dice,euclidean,hamming,haversine,infinity,jaccard,l1,l2,mahalanobis,manhattan,minkowski,nan_euclidean,p,precomputed,pyfunc,rogerstanimoto,russellrao,seuclidean,sokalmichener,sokalsneath,sqeuclidean,yule
KNeighborsClassifier weights distance,uniform
KNeighborsRegressor algorithm auto,ball_tree,brute,kd_tree
KNeighborsRegressor metric braycurtis,canberra,chebyshev,cityblock,correlation,cosine,dice,euclidean,hamming,haversine,infinity,jaccard,l1,l2,mahalanobis,manhattan,minkowski,nan_euclidean,p,precomputed,pyfunc,rogerstanimoto,russellrao,seuclidean,sokalmichener,sokalsneath,sqeuclidean,yule
KNeighborsRegressor weights distance,uniform
KNeighborsTransformer algorithm auto,ball_tree,brute,kd_tree
KNeighborsTransformer metric braycurtis,canberra,chebyshev,cityblock,correlation,cosine,dice,euclidean,hamming,haversine,infinity,jaccard,l1,l2,mahalanobis,manhattan,minkowski,nan_euclidean,p,precomputed,pyfunc,rogerstanimoto,russellrao,seuclidean,sokalmichener,sokalsneath,sqeuclidean,yule
KNeighborsTransformer mode connectivity,distance
KernelDensity algorithm auto,ball_tree,kd_tree
KernelDensity bandwidth scott,silverman
KernelDensity kernel cosine,epanechnikov,exponential,gaussian,linear,tophat
KernelDensity metric braycurtis,canberra,chebyshev,cityblock,dice,euclidean,hamming,haversine,infinity,jaccard,l1,l2,mahalanobis,manhattan,minkowski,p,pyfunc,rogerstanimoto,russellrao,seuclidean,sokalmichener,sokalsneath
KernelPCA eigen_solver arpack,auto,dense,randomized
KernelPCA iterated_power auto
KernelPCA kernel cosine,linear,poly,precomputed,rbf,sigmoid
KernelRidge kernel additive_chi2,chi2,cosine,laplacian,linear,poly,polynomial,precomputed,rbf,sigmoid
LabelPropagation kernel knn,rbf
LabelSpreading kernel knn,rbf
Lars precompute auto
LarsCV precompute auto
Lasso selection cyclic,random
LassoCV selection cyclic,random
LassoLars precompute auto
LassoLarsCV precompute auto
LassoLarsIC criterion aic,bic
LassoLarsIC precompute auto
LatentDirichletAllocation learning_method batch,online
LinearDiscriminantAnalysis shrinkage auto
LinearDiscriminantAnalysis solver eigen,lsqr,svd
LinearSVC class_weight balanced
LinearSVC dual auto
LinearSVC loss hinge,squared_hinge
LinearSVC multi_class crammer_singer,ovr
LinearSVC penalty l1,l2
LinearSVR dual auto
LinearSVR loss epsilon_insensitive,squared_epsilon_insensitive
LocalOutlierFactor algorithm auto,ball_tree,brute,kd_tree
LocalOutlierFactor contamination auto
LocalOutlierFactor metric braycurtis,canberra,chebyshev,cityblock,correlation,cosine,dice,euclidean,hamming,haversine,infinity,jaccard,l1,l2,mahalanobis,manhattan,minkowski,nan_euclidean,p,precomputed,pyfunc,rogerstanimoto,russellrao,seuclidean,sokalmichener,sokalsneath,sqeuclidean,yule
LocallyLinearEmbedding eigen_solver arpack,auto,dense
LocallyLinearEmbedding method hessian,ltsa,modified,standard
LocallyLinearEmbedding neighbors_algorithm auto,ball_tree,brute,kd_tree
LogisticRegression class_weight balanced
LogisticRegression penalty deprecated,elasticnet,l1,l2
LogisticRegression solver lbfgs,liblinear,newton-cg,newton-cholesky,sag,saga
LogisticRegressionCV class_weight balanced
LogisticRegressionCV penalty deprecated,elasticnet,l1,l2
LogisticRegressionCV solver lbfgs,liblinear,newton-cg,newton-cholesky,sag,saga
LogisticRegressionCV use_legacy_attributes warn
MDS dissimilarity deprecated,euclidean,precomputed
MDS init classical_mds,random,warn
MDS n_init warn
MDS normalized_stress auto
MLPClassifier activation identity,logistic,relu,tanh
MLPClassifier batch_size auto
MLPClassifier learning_rate adaptive,constant,invscaling
MLPClassifier solver adam,lbfgs,sgd
MLPRegressor activation identity,logistic,relu,tanh
MLPRegressor batch_size auto
MLPRegressor learning_rate adaptive,constant,invscaling
MLPRegressor loss poisson,squared_error
MLPRegressor solver adam,lbfgs,sgd
MiniBatchDictionaryLearning fit_algorithm cd,lars
MiniBatchDictionaryLearning transform_algorithm lars,lasso_cd,lasso_lars,omp,threshold
MiniBatchKMeans n_init auto
MiniBatchNMF alpha_H same
MiniBatchNMF beta_loss frobenius,itakura-saito,kullback-leibler
MiniBatchNMF init custom,nndsvd,nndsvda,nndsvdar,random
MiniBatchNMF n_components auto
MiniBatchSparsePCA method cd,lars
MissingIndicator features all,missing-only
MissingIndicator sparse auto
MultiTaskElasticNet selection cyclic,random
MultiTaskElasticNetCV selection cyclic,random
MultiTaskLasso selection cyclic,random
MultiTaskLassoCV selection cyclic,random
NMF alpha_H same
NMF beta_loss frobenius,itakura-saito,kullback-leibler
NMF init custom,nndsvd,nndsvda,nndsvdar,random
NMF n_components auto
NMF solver cd,mu
NearestCentroid metric euclidean,manhattan
NearestNeighbors algorithm auto,ball_tree,brute,kd_tree
NearestNeighbors metric braycurtis,canberra,chebyshev,cityblock,correlation,cosine,dice,euclidean,hamming,haversine,infinity,jaccard,l1,l2,mahalanobis,manhattan,minkowski,nan_euclidean,p,precomputed,pyfunc,rogerstanimoto,russellrao,seuclidean,sokalmichener,sokalsneath,sqeuclidean,yule
NeighborhoodComponentsAnalysis init auto,identity,lda,pca,random
Normalizer norm l1,l2,max
NuSVC class_weight balanced
NuSVC decision_function_shape ovo,ovr
NuSVC gamma auto,scale
NuSVC kernel linear,poly,precomputed,rbf,sigmoid
NuSVC probability deprecated
NuSVR gamma auto,scale
NuSVR kernel linear,poly,precomputed,rbf,sigmoid
Nystroem kernel additive_chi2,chi2,cosine,laplacian,linear,poly,polynomial,precomputed,rbf,sigmoid
OPTICS algorithm auto,ball_tree,brute,kd_tree
OPTICS cluster_method dbscan,xi
OPTICS metric braycurtis,canberra,chebyshev,cityblock,correlation,cosine,dice,euclidean,hamming,haversine,jaccard,l1,l2,mahalanobis,manhattan,matching,minkowski,nan_euclidean,precomputed,rogerstanimoto,russellrao,seuclidean,sokalsneath,sqeuclidean,wminkowski,yule
OneClassSVM gamma auto,scale
OneClassSVM kernel linear,poly,precomputed,rbf,sigmoid
OneHotEncoder categories auto
OneHotEncoder feature_name_combiner concat
OneHotEncoder handle_unknown error,ignore,infrequent_if_exist,warn
OrdinalEncoder categories auto
OrdinalEncoder handle_unknown error,use_encoded_value
OrthogonalMatchingPursuit precompute auto
PCA iterated_power auto
PCA n_components mle
PCA power_iteration_normalizer LU,QR,auto,none
PCA svd_solver arpack,auto,covariance_eigh,full,randomized
PLSCanonical algorithm nipals,svd
PassiveAggressiveClassifier class_weight balanced
PassiveAggressiveClassifier loss hinge,squared_hinge
PassiveAggressiveRegressor loss epsilon_insensitive,squared_epsilon_insensitive
Perceptron class_weight balanced
Perceptron penalty elasticnet,l1,l2
PoissonRegressor solver lbfgs,newton-cholesky
PolynomialFeatures order C,F
PowerTransformer method box-cox,yeo-johnson
QuadraticDiscriminantAnalysis shrinkage auto
QuadraticDiscriminantAnalysis solver eigen,svd
QuantileTransformer output_distribution normal,uniform
RANSACRegressor loss absolute_error,squared_error
RBFSampler gamma scale
RadiusNeighborsClassifier algorithm auto,ball_tree,brute,kd_tree
RadiusNeighborsClassifier metric braycurtis,canberra,chebyshev,cityblock,correlation,cosine,dice,euclidean,hamming,haversine,infinity,jaccard,l1,l2,mahalanobis,manhattan,minkowski,nan_euclidean,p,precomputed,pyfunc,rogerstanimoto,russellrao,seuclidean,sokalmichener,sokalsneath,sqeuclidean,yule
RadiusNeighborsClassifier weights distance,uniform
RadiusNeighborsRegressor algorithm auto,ball_tree,brute,kd_tree
RadiusNeighborsRegressor metric braycurtis,canberra,chebyshev,cityblock,correlation,cosine,dice,euclidean,hamming,haversine,infinity,jaccard,l1,l2,mahalanobis,manhattan,minkowski,nan_euclidean,p,precomputed,pyfunc,rogerstanimoto,russellrao,seuclidean,sokalmichener,sokalsneath,sqeuclidean,yule
RadiusNeighborsRegressor weights distance,uniform
RadiusNeighborsTransformer algorithm auto,ball_tree,brute,kd_tree
RadiusNeighborsTransformer metric braycurtis,canberra,chebyshev,cityblock,correlation,cosine,dice,euclidean,hamming,haversine,infinity,jaccard,l1,l2,mahalanobis,manhattan,minkowski,nan_euclidean,p,precomputed,pyfunc,rogerstanimoto,russellrao,seuclidean,sokalmichener,sokalsneath,sqeuclidean,yule
RadiusNeighborsTransformer mode connectivity,distance
RandomForestClassifier class_weight balanced,balanced_subsample
RandomForestClassifier criterion entropy,gini,log_loss
RandomForestClassifier max_features log2,sqrt
RandomForestRegressor criterion absolute_error,poisson,squared_error
RandomForestRegressor max_features log2,sqrt
RandomizedSearchCV error_score raise
RegressorChain cv prefit
Ridge solver auto,cholesky,lbfgs,lsqr,sag,saga,sparse_cg,svd
RidgeCV gcv_mode auto,eigen,svd
RidgeClassifier class_weight balanced
RidgeClassifier solver auto,cholesky,lbfgs,lsqr,sag,saga,sparse_cg,svd
RidgeClassifierCV class_weight balanced
SGDClassifier class_weight balanced
SGDClassifier learning_rate adaptive,constant,invscaling,optimal,pa1,pa2
SGDClassifier loss epsilon_insensitive,hinge,huber,log_loss,modified_huber,perceptron,squared_epsilon_insensitive,squared_error,squared_hinge
SGDClassifier penalty elasticnet,l1,l2
SGDOneClassSVM learning_rate adaptive,constant,invscaling,optimal,pa1,pa2
SGDRegressor learning_rate adaptive,constant,invscaling,optimal,pa1,pa2
SGDRegressor loss epsilon_insensitive,huber,squared_epsilon_insensitive,squared_error
SGDRegressor penalty elasticnet,l1,l2
SVC class_weight balanced
SVC decision_function_shape ovo,ovr
SVC gamma auto,scale
SVC kernel linear,poly,precomputed,rbf,sigmoid
SVC probability deprecated
SVR gamma auto,scale
SVR kernel linear,poly,precomputed,rbf,sigmoid
SelectKBest k all
SelfTrainingClassifier criterion k_best,threshold
SequentialFeatureSelector direction backward,forward
SequentialFeatureSelector n_features_to_select auto
SimpleImputer strategy constant,mean,median,most_frequent
SparseCoder transform_algorithm lars,lasso_cd,lasso_lars,omp,threshold
SparsePCA method cd,lars
SparseRandomProjection density auto
SparseRandomProjection n_components auto
SpectralBiclustering init k-means++,random
SpectralBiclustering method bistochastic,log,scale
SpectralBiclustering svd_method arpack,randomized
SpectralClustering affinity additive_chi2,chi2,cosine,laplacian,linear,nearest_neighbors,poly,polynomial,precomputed,precomputed_nearest_neighbors,rbf,sigmoid
SpectralClustering assign_labels cluster_qr,discretize,kmeans
SpectralClustering eigen_solver amg,arpack,lobpcg
SpectralClustering eigen_tol auto
SpectralCoclustering init k-means++,random
SpectralCoclustering svd_method arpack,randomized
SpectralEmbedding affinity nearest_neighbors,precomputed,precomputed_nearest_neighbors,rbf
SpectralEmbedding eigen_solver amg,arpack,lobpcg
SpectralEmbedding eigen_tol auto
SplineTransformer extrapolation constant,continue,error,linear,periodic
SplineTransformer handle_missing error,zeros
SplineTransformer order C,F
StackingClassifier cv prefit
StackingClassifier stack_method auto,decision_function,predict,predict_proba
StackingRegressor cv prefit
TSNE init pca,random
TSNE learning_rate auto
TSNE method barnes_hut,exact
TSNE metric braycurtis,canberra,chebyshev,cityblock,correlation,cosine,dice,euclidean,hamming,haversine,jaccard,l1,l2,mahalanobis,manhattan,matching,minkowski,nan_euclidean,precomputed,rogerstanimoto,russellrao,seuclidean,sokalsneath,sqeuclidean,wminkowski,yule
TargetEncoder categories auto
TargetEncoder random_state deprecated
TargetEncoder shuffle deprecated
TargetEncoder smooth auto
TargetEncoder target_type auto,binary,continuous,multiclass
TfidfTransformer norm l1,l2
TfidfVectorizer analyzer char,char_wb,word
TfidfVectorizer decode_error ignore,replace,strict
TfidfVectorizer input content,file,filename
TfidfVectorizer norm l1,l2
TfidfVectorizer stop_words english
TfidfVectorizer strip_accents ascii,unicode
TruncatedSVD algorithm arpack,randomized
TruncatedSVD power_iteration_normalizer LU,QR,auto,none
TunedThresholdClassifierCV cv prefit
TunedThresholdClassifierCV response_method auto,decision_function,predict_proba
TweedieRegressor link auto,identity,log
TweedieRegressor solver lbfgs,newton-cholesky
VotingClassifier voting hard,soft
";

/// What `fit` learns that three estimators or more may have (bit i of a
/// LEARNT_BY_CLASS mask).
pub(crate) const LEARNT_NAMES: &[&str] = &[
    "active_",
    "affinity_matrix_",
    "alpha_",
    "alphas_",
    "categories_",
    "class_count_",
    "class_log_prior_",
    "class_prior_",
    "classes_",
    "cluster_centers_",
    "coef_",
    "coef_path_",
    "components_",
    "covariance_",
    "cv_results_",
    "dual_coef_",
    "dual_gap_",
    "effective_metric_",
    "effective_metric_params_",
    "embedding_",
    "estimator_",
    "estimators_",
    "estimators_features_",
    "estimators_samples_",
    "explained_variance_",
    "explained_variance_ratio_",
    "feature_count_",
    "feature_importances_",
    "feature_log_prob_",
    "feature_names_in_",
    "fit_status_",
    "inertia_",
    "infrequent_categories_",
    "intercept_",
    "labels_",
    "location_",
    "max_features_",
    "mean_",
    "means_",
    "mse_path_",
    "n_classes_",
    "n_components_",
    "n_features_in_",
    "n_iter_",
    "n_outputs_",
    "n_samples_fit_",
    "n_samples_seen_",
    "n_steps_",
    "n_support_",
    "n_trees_per_iteration_",
    "noise_variance_",
    "offset_",
    "oob_decision_function_",
    "oob_prediction_",
    "oob_score_",
    "precision_",
    "pvalues_",
    "scale_",
    "scores_",
    "shape_fit_",
    "singular_values_",
    "support_",
    "support_vectors_",
    "t_",
    "train_score_",
    "tree_",
    "var_",
];

/// The names of LEARNT_NAMES each estimator class may have (its class, its docstring or a
/// fit gives them): any other raises AttributeError on an instance.
pub(crate) const LEARNT_BY_CLASS: &[(&str, u128)] = &[
    ("ARDRegression", 0x4000c0220000404),
    ("AdaBoostClassifier", 0x50028300100),
    ("AdaBoostRegressor", 0x40028300000),
    ("AdditiveChi2Sampler", 0x40020000000),
    ("AffinityPropagation", 0xc0420000202),
    ("AgglomerativeClustering", 0x40420000000),
    ("BaggingClassifier", 0x50050020f00100),
    ("BaggingRegressor", 0x60040020f00000),
    ("BayesianGaussianMixture", 0xc4020000000),
    ("BayesianRidge", 0x4000c0220000404),
    ("BernoulliNB", 0x40034000160),
    ("BernoulliRBM", 0x40020001000),
    ("Binarizer", 0x40020000000),
    ("Birch", 0x40420000000),
    ("BisectingKMeans", 0x404a0000200),
    ("CalibratedClassifierCV", 0x40020000100),
    ("CategoricalNB", 0x40030000160),
    ("ClassicalMDS", 0x40020080000),
    ("ComplementNB", 0x40034000160),
    ("CountVectorizer", 0x0),
    ("DBSCAN", 0x40420001000),
    ("DecisionTreeClassifier", 0x20000151028000100),
    ("DecisionTreeRegressor", 0x20000141028000000),
    ("DictionaryLearning", 0xc0020001000),
    ("DummyClassifier", 0x150020000180),
    ("DummyRegressor", 0x140020000000),
    ("ElasticNet", 0xc0220010400),
    ("ElasticNetCV", 0xc822001040c),
    ("EllipticEnvelope", 0x2088040820002000),
    ("EmpiricalCovariance", 0x80040820002000),
    ("ExtraTreeClassifier", 0x20000151028000100),
    ("ExtraTreeRegressor", 0x20000141028000000),
    ("ExtraTreesClassifier", 0x50150028b00100),
    ("ExtraTreesRegressor", 0x60140028b00000),
    ("FactorAnalysis", 0x40c2020001000),
    ("FastICA", 0xc2020001000),
    ("FeatureAgglomeration", 0x40420000000),
    ("FeatureHasher", 0x0),
    ("FunctionTransformer", 0x40020000000),
    ("GammaRegressor", 0xc0220000400),
    ("GaussianMixture", 0xc4020000000),
    ("GaussianNB", 0x400000400200001a0),
    ("GaussianProcessClassifier", 0x50020000100),
    ("GaussianProcessRegressor", 0x40020000004),
    ("GenericUnivariateSelect", 0x500040020000000),
    ("GradientBoostingClassifier", 0x10042051028200100),
    ("GradientBoostingRegressor", 0x10042041028200000),
    ("GraphicalLasso", 0x800c0820002000),
    ("GraphicalLassoCV", 0x800c0820006004),
    ("HDBSCAN", 0x40420000000),
    ("HashingVectorizer", 0x0),
    ("HistGradientBoostingClassifier", 0x100020c0020000100),
    ("HistGradientBoostingRegressor", 0x100020c0020000000),
    ("HuberRegressor", 0x2000c0220000400),
    ("IncrementalPCA", 0x41004462023001000),
    ("IsolationForest", 0x8040020f00000),
    ("Isomap", 0x40020080000),
    ("KBinsDiscretizer", 0x40020000000),
    ("KMeans", 0xc04a0000200),
    ("KNNImputer", 0x40020000000),
    ("KNeighborsClassifier", 0x240020060100),
    ("KNeighborsRegressor", 0x240020060000),
    ("KNeighborsTransformer", 0x240020060000),
    ("KernelDensity", 0x20000040020000000),
    ("KernelPCA", 0x40020008000),
    ("KernelRidge", 0x40020008000),
    ("LabelBinarizer", 0x100),
    ("LabelEncoder", 0x100),
    ("LabelPropagation", 0xc0020000100),
    ("LabelSpreading", 0xc0020000100),
    ("Lars", 0xc0220000c09),
    ("LarsCV", 0xc8220000c0d),
    ("Lasso", 0xc0220010400),
    ("LassoCV", 0xc822001040c),
    ("LassoLars", 0xc0220000c09),
    ("LassoLarsCV", 0xc8220000c0d),
    ("LassoLarsIC", 0x40c022000040c),
    ("LatentDirichletAllocation", 0xc0020001000),
    ("LedoitWolf", 0x80040820002000),
    ("LinearDiscriminantAnalysis", 0x44222002500),
    ("LinearRegression", 0x40220000400),
    ("LinearSVC", 0xc0220000500),
    ("LinearSVR", 0xc0220000400),
    ("LocalOutlierFactor", 0x8240020060000),
    ("LocallyLinearEmbedding", 0x40020080000),
    ("LogisticRegression", 0xc0220000500),
    ("LogisticRegressionCV", 0x4000c0220000500),
    ("MDS", 0xc0020080000),
    ("MLPClassifier", 0x80001c0020000100),
    ("MLPRegressor", 0x80001c0020000000),
    ("MaxAbsScaler", 0x200440020000000),
    ("MeanShift", 0xc0420000200),
    ("MinCovDet", 0x2080040820002000),
    ("MinMaxScaler", 0x200440020000000),
    ("MiniBatchDictionaryLearning", 0x8c0020001000),
    ("MiniBatchKMeans", 0x8c04a0000200),
    ("MiniBatchNMF", 0x8e0020001000),
    ("MiniBatchSparsePCA", 0xe2020001000),
    ("MissingIndicator", 0x40020000000),
    ("MultiLabelBinarizer", 0x100),
    ("MultinomialNB", 0x40034000160),
    ("NMF", 0xe0020001000),
    ("NearestCentroid", 0x40020000180),
    ("NearestNeighbors", 0x240020060000),
    ("NeighborhoodComponentsAnalysis", 0xc0020001000),
    ("Normalizer", 0x40020000000),
    ("NuSVC", 0x68010c0260008500),
    ("NuSVR", 0x68010c0260008400),
    ("Nystroem", 0x40020001000),
    ("OAS", 0x80040820002000),
    ("OPTICS", 0x40420000000),
    ("OneClassSVM", 0x68090c0260008400),
    ("OneHotEncoder", 0x40120000010),
    ("OrdinalEncoder", 0x40120000010),
    ("OrthogonalMatchingPursuit", 0xc0220000400),
    ("OrthogonalMatchingPursuitCV", 0xc0220000400),
    ("PCA", 0x1004062023001000),
    ("PLSRegression", 0xc0220000400),
    ("PassiveAggressiveClassifier", 0x80000c0220000500),
    ("PassiveAggressiveRegressor", 0x80000c0220000400),
    ("PatchExtractor", 0x0),
    ("Perceptron", 0x80000c0220000500),
    ("PoissonRegressor", 0xc0220000400),
    ("PolynomialCountSketch", 0x40020000000),
    ("PolynomialFeatures", 0x40020000000),
    ("PowerTransformer", 0x40020000000),
    ("QuadraticDiscriminantAnalysis", 0x44020002100),
    ("QuantileRegressor", 0xc0220000400),
    ("QuantileTransformer", 0x40020000000),
    ("RANSACRegressor", 0x40020100000),
    ("RBFSampler", 0x40020000000),
    ("RadiusNeighborsClassifier", 0x240020060100),
    ("RadiusNeighborsRegressor", 0x240020060000),
    ("RadiusNeighborsTransformer", 0x240020060000),
    ("RandomForestClassifier", 0x50150028b00100),
    ("RandomForestRegressor", 0x60140028b00000),
    ("RandomTreesEmbedding", 0x140028b00000),
    ("Ridge", 0xc0220000400),
    ("RidgeCV", 0x40220004404),
    ("RidgeClassifier", 0xc0220000500),
    ("RidgeClassifierCV", 0x40220004504),
    ("RobustScaler", 0x200040020000000),
    ("SGDClassifier", 0x80000c0220000500),
    ("SGDOneClassSVM", 0x80080c0020000400),
    ("SGDRegressor", 0x80000c0220000400),
    ("SVC", 0x68010c0260008500),
    ("SVR", 0x68010c0260008400),
    ("SelectFdr", 0x500040020000000),
    ("SelectFpr", 0x500040020000000),
    ("SelectFwe", 0x500040020000000),
    ("SelectKBest", 0x500040020000000),
    ("SelectPercentile", 0x500040020000000),
    ("ShrunkCovariance", 0x80040820002000),
    ("SimpleImputer", 0x40020000000),
    ("SkewedChi2Sampler", 0x40020000000),
    ("SparsePCA", 0xe2020001000),
    ("SpectralBiclustering", 0x40020000000),
    ("SpectralClustering", 0x40420000002),
    ("SpectralCoclustering", 0x40020000000),
    ("SpectralEmbedding", 0x40020080002),
    ("SplineTransformer", 0x40020000000),
    ("StandardScaler", 0x40200442020000000),
    ("TSNE", 0xc0020080000),
    ("TargetEncoder", 0x40120000110),
    ("TfidfTransformer", 0x40020000000),
    ("TfidfVectorizer", 0x0),
    ("TheilSenRegressor", 0xc0220000400),
    ("TransformedTargetRegressor", 0x40020000000),
    ("TruncatedSVD", 0x1000040023001000),
    ("TweedieRegressor", 0xc0220000400),
    ("VarianceThreshold", 0x40020000000),
];

/// Estimators that build with default parameters and whose predict, transform, predict_proba
/// and decision_function all raise NotFittedError before fit.
pub(crate) const UNFITTED_RAISE: &[&str] = &[
    "ARDRegression",
    "AdaBoostClassifier",
    "AdaBoostRegressor",
    "AffinityPropagation",
    "BaggingClassifier",
    "BaggingRegressor",
    "BayesianGaussianMixture",
    "BayesianRidge",
    "BernoulliNB",
    "BernoulliRBM",
    "Birch",
    "BisectingKMeans",
    "CCA",
    "CalibratedClassifierCV",
    "CategoricalNB",
    "ComplementNB",
    "CountVectorizer",
    "DecisionTreeClassifier",
    "DecisionTreeRegressor",
    "DictVectorizer",
    "DictionaryLearning",
    "DummyClassifier",
    "DummyRegressor",
    "ElasticNet",
    "ElasticNetCV",
    "EllipticEnvelope",
    "ExtraTreeClassifier",
    "ExtraTreeRegressor",
    "ExtraTreesClassifier",
    "ExtraTreesRegressor",
    "FactorAnalysis",
    "FastICA",
    "FeatureAgglomeration",
    "GammaRegressor",
    "GaussianMixture",
    "GaussianNB",
    "GaussianProcessClassifier",
    "GaussianRandomProjection",
    "GenericUnivariateSelect",
    "GradientBoostingClassifier",
    "GradientBoostingRegressor",
    "HistGradientBoostingClassifier",
    "HistGradientBoostingRegressor",
    "HuberRegressor",
    "IncrementalPCA",
    "IsolationForest",
    "Isomap",
    "KBinsDiscretizer",
    "KMeans",
    "KNNImputer",
    "KNeighborsClassifier",
    "KNeighborsRegressor",
    "KNeighborsTransformer",
    "KernelCenterer",
    "KernelPCA",
    "KernelRidge",
    "LabelBinarizer",
    "LabelEncoder",
    "LabelPropagation",
    "LabelSpreading",
    "Lars",
    "LarsCV",
    "Lasso",
    "LassoCV",
    "LassoLars",
    "LassoLarsCV",
    "LassoLarsIC",
    "LatentDirichletAllocation",
    "LinearDiscriminantAnalysis",
    "LinearRegression",
    "LinearSVC",
    "LinearSVR",
    "LocallyLinearEmbedding",
    "LogisticRegression",
    "LogisticRegressionCV",
    "MLPClassifier",
    "MLPRegressor",
    "MaxAbsScaler",
    "MeanShift",
    "MinMaxScaler",
    "MiniBatchDictionaryLearning",
    "MiniBatchKMeans",
    "MiniBatchNMF",
    "MiniBatchSparsePCA",
    "MissingIndicator",
    "MultiLabelBinarizer",
    "MultiTaskElasticNet",
    "MultiTaskElasticNetCV",
    "MultiTaskLasso",
    "MultiTaskLassoCV",
    "MultinomialNB",
    "NMF",
    "NearestCentroid",
    "NeighborhoodComponentsAnalysis",
    "NuSVC",
    "NuSVR",
    "Nystroem",
    "OneClassSVM",
    "OneHotEncoder",
    "OrdinalEncoder",
    "OrthogonalMatchingPursuit",
    "OrthogonalMatchingPursuitCV",
    "PCA",
    "PLSCanonical",
    "PLSRegression",
    "PLSSVD",
    "PassiveAggressiveClassifier",
    "PassiveAggressiveRegressor",
    "Perceptron",
    "PoissonRegressor",
    "PolynomialCountSketch",
    "PolynomialFeatures",
    "PowerTransformer",
    "QuadraticDiscriminantAnalysis",
    "QuantileRegressor",
    "QuantileTransformer",
    "RANSACRegressor",
    "RBFSampler",
    "RadiusNeighborsClassifier",
    "RadiusNeighborsRegressor",
    "RadiusNeighborsTransformer",
    "RandomForestClassifier",
    "RandomForestRegressor",
    "RandomTreesEmbedding",
    "Ridge",
    "RidgeCV",
    "RidgeClassifier",
    "RidgeClassifierCV",
    "RobustScaler",
    "SGDClassifier",
    "SGDOneClassSVM",
    "SGDRegressor",
    "SVC",
    "SVR",
    "SelectFdr",
    "SelectFpr",
    "SelectFwe",
    "SelectKBest",
    "SelectPercentile",
    "SimpleImputer",
    "SkewedChi2Sampler",
    "SparsePCA",
    "SparseRandomProjection",
    "SplineTransformer",
    "StandardScaler",
    "TfidfTransformer",
    "TfidfVectorizer",
    "TheilSenRegressor",
    "TransformedTargetRegressor",
    "TruncatedSVD",
    "TweedieRegressor",
    "VarianceThreshold",
];
