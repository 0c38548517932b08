//! Measuring, native only: the JunoBench harness for the rules (`junobench`, `cellguard bench`)
//! and the paper's LLM experiment (`llm`, `cellguard bench --llm | --replay | --prompt-sizes |
//! --show-prompt`).

pub mod junobench;
pub mod llm;

/// `cellguard bench`'s arguments. Without an LLM option it scores the rules on the cases.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// JunoBench cases, one JSON object a line (the format of shared/junobench/dev.jsonl).
    #[arg(value_name = "CASES.jsonl")]
    pub cases: String,
    /// Also write the rules' scores as JSON to OUT.
    #[arg(long = "json", value_name = "OUT", conflicts_with_all = ["llm", "replay", "prompt_sizes", "show_prompt"])]
    pub json_out: Option<String>,
    /// Score the rules with no kernel to ask (the cases' runtime summaries left out), as
    /// `cellguard check` sees a saved notebook.
    #[arg(long, conflicts_with_all = ["llm", "replay", "prompt_sizes", "show_prompt"])]
    pub offline: bool,
    /// Run the paper's experiment against this OpenAI-compatible endpoint (needs --model).
    #[arg(long, value_name = "BASE_URL", group = "llm_bench")]
    pub llm: Option<String>,
    /// Judge recorded answers (JSON lines) instead of asking a server.
    #[arg(
        long,
        value_name = "ANSWERS.jsonl",
        group = "llm_bench",
        conflicts_with = "llm"
    )]
    pub replay: Option<String>,
    /// Compare our prompts' sizes with the paper's (and then run --llm, if given).
    #[arg(long, group = "llm_bench")]
    pub prompt_sizes: bool,
    /// Print the prompt of the case INSTANCE (in the first --setting, default +RT).
    #[arg(long, value_name = "INSTANCE", group = "llm_bench")]
    pub show_prompt: Option<String>,
    /// The model to ask (default: CELLGUARD_LLM_MODEL); with --replay, the recorded model to judge.
    #[arg(long, value_name = "M")]
    pub model: Option<String>,
    /// Answers asked per case and setting.
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u16).range(1..))]
    pub runs: u16,
    /// A prompt configuration: +RT (default), -RT, -S, -R, -V or +DOCS; repeat or separate with commas.
    #[arg(
        long = "setting",
        value_name = "S",
        value_delimiter = ',',
        allow_hyphen_values = true
    )]
    pub settings: Vec<String>,
    /// The sampling temperature sent to the endpoint.
    #[arg(long, value_name = "T")]
    pub temperature: Option<f64>,
}

/// Runs `cellguard bench`: the LLM experiment when an LLM option is given, else the rules' scores.
pub fn run(args: &BenchArgs) -> u8 {
    let llm_bench = args.llm.is_some()
        || args.replay.is_some()
        || args.prompt_sizes
        || args.show_prompt.is_some();
    if llm_bench {
        llm::cli(args)
    } else {
        junobench::cli(&args.cases, args.json_out.as_deref(), args.offline)
    }
}
