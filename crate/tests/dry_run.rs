//! Which cells a dry run declines, each with a twin it accepts, and the crash diagnostic.

use cellguard::codes::Rule;
use cellguard::dryrun::{crash_diagnostic, decline, DryRunException};

/// Asserts the cell is declined for `effect` at `line`, naming `what`.
fn declined(source: &str, effect: &str, what: &str, line: u32) {
    let found = decline(source).unwrap_or_else(|| panic!("expected a decline of {source:?}"));
    assert_eq!(
        (found.effect, found.what.as_str(), found.line),
        (effect, what, line),
        "{source:?}"
    );
}

fn accepted(source: &str) {
    assert_eq!(decline(source), None, "{source:?}");
}

#[test]
fn pandas_writers_are_declined_and_string_renderers_are_not() {
    declined("x = 1\ndf.to_csv('out.csv')", "write-file", "df.to_csv", 2);
    accepted("x = 1\ntext = df.to_csv()");
    declined(
        "df.to_json(path_or_buf='a.json')",
        "write-file",
        "df.to_json",
        1,
    );
    accepted("payload = df.to_json(orient='records')");
    declined(
        "df.to_parquet('a.parquet')",
        "write-file",
        "df.to_parquet",
        1,
    );
    declined("df.head().to_excel(writer)", "write-file", ".to_excel", 1);
    accepted("df.head().to_numpy()");
}

#[test]
fn saving_files_and_figures_is_declined() {
    declined("np.save('a.npy', a)", "write-file", "np.save", 1);
    declined(
        "plt.plot(x)\nplt.savefig('fig.png')",
        "write-file",
        "plt.savefig",
        2,
    );
    declined("model.save('model.keras')", "write-file", "model.save", 1);
    declined(
        "torch.save(net.state_dict(), 'w.pt')",
        "write-file",
        "torch.save",
        1,
    );
    declined(
        "joblib.dump(model, 'm.pkl')",
        "write-file",
        "joblib.dump",
        1,
    );
    accepted("plt.plot(x)\nplt.show()");
    accepted("model.fit(X, y)\nnp.load('a.npy')");
}

#[test]
fn open_for_writing_is_declined_and_reading_is_not() {
    declined(
        "with open('log.txt', 'w') as f:\n    f.write('x')",
        "write-file",
        "open",
        1,
    );
    declined("f = open('log.txt', mode='a')", "write-file", "open", 1);
    declined(
        "x = 1\nopen('out.txt', 'w').write('x')",
        "write-file",
        "open",
        2,
    );
    declined("f = open('log.txt', mode=chosen)", "write-file", "open", 1);
    declined("g = gzip.open('x.gz', 'wt')", "write-file", "gzip.open", 1);
    declined("h = h5py.File('x.h5', 'w')", "write-file", "h5py.File", 1);
    declined("p = Path('x').open('a')", "write-file", ".open", 1);
    declined(
        "m = np.memmap('x.dat', mode='w+', shape=(3,))",
        "write-file",
        "np.memmap",
        1,
    );
    accepted("m = np.memmap('x.dat', mode='r', shape=(3,))");
    accepted("labels = np.where(mask, 'a', 'b')\nname = s.str.replace('x', 'w')");
    accepted("with open('log.txt') as f:\n    text = f.read()");
    accepted("with open('log.txt', 'rb') as f:\n    data = f.read()");
    accepted("g = gzip.open('x.gz', 'rt')\nrows = df.loc[0, 'w']");
}

#[test]
fn os_shutil_and_subprocess_calls_are_declined_and_reads_are_not() {
    declined(
        "import os\nos.remove('a.csv')",
        "filesystem",
        "os.remove",
        2,
    );
    declined(
        "os.makedirs('out', exist_ok=True)",
        "filesystem",
        "os.makedirs",
        1,
    );
    declined("os.system('ls')", "subprocess", "os.system", 1);
    declined("os.execvp('ls', ['ls'])", "subprocess", "os.execvp", 1);
    declined("shutil.rmtree('out')", "filesystem", "shutil.rmtree", 1);
    declined(
        "import subprocess as sp\nsp.run(['ls'])",
        "subprocess",
        "sp.run",
        2,
    );
    declined(
        "from os import remove\nremove('a')",
        "filesystem",
        "remove",
        2,
    );
    accepted("import os\npath = os.path.join(os.getcwd(), 'a.csv')\nnames = os.listdir('.')");
    accepted("exe = shutil.which('python')\nvalue = os.environ.get('HOME')");
    accepted("from os import path\nfull = path.join('a', 'b')");
}

#[test]
fn effects_inside_functions_and_loops_count() {
    let code =
        "def store(frame):\n    frame.to_parquet('x.parquet')\n\nfor i in range(3):\n    pass";
    declined(code, "write-file", "frame.to_parquet", 2);
    accepted("def show(frame):\n    return frame.describe()\n\nshow(df)");
}

#[test]
fn network_and_database_clients_are_declined() {
    declined("r = requests.get(url)", "network", "requests.get", 1);
    declined(
        "import urllib.request\nurllib.request.urlopen(u)",
        "network",
        "urllib.request.urlopen",
        2,
    );
    declined(
        "df = pd.read_csv('https://x.org/a.csv')",
        "network",
        "https://x.org/a.csv",
        1,
    );
    declined(
        "engine = sqlalchemy.create_engine(dsn)",
        "database",
        "sqlalchemy.create_engine",
        1,
    );
    declined(
        "con = sqlite3.connect('a.db')",
        "database",
        "sqlite3.connect",
        1,
    );
    declined(
        "frame = pd.read_sql(query, con)",
        "database",
        "pd.read_sql",
        1,
    );
    declined("s = socket.socket()", "network", "socket.socket", 1);
    accepted("from urllib.parse import urlparse\nparts = urlparse('x')\ndf = pd.read_csv('a.csv')");
    accepted("label = 'see http docs'");
}

#[test]
fn shell_escapes_and_magics_with_effects_are_declined() {
    declined("x = 1\n!ls -la", "subprocess", "!", 2);
    declined("files = !ls", "subprocess", "!", 1);
    declined("%%bash\nrm -rf out", "magic", "%%bash", 1);
    declined("%%writefile a.py\nprint(1)", "magic", "%%writefile", 1);
    declined("%run other.py", "magic", "%run", 1);
    declined("%pip install x", "magic", "%pip", 1);
    accepted("%matplotlib inline\n%time y = f(x)");
    accepted("%%time\ny = f(x)");
}

#[test]
fn the_first_effect_in_the_cell_is_reported() {
    declined(
        "a = 1\ndf.to_csv('a')\nos.remove('b')",
        "write-file",
        "df.to_csv",
        2,
    );
}

#[test]
fn a_crash_becomes_an_error_on_its_line() {
    let source = "total = df['Age'].sum()\n    fare = df['Fare']\nprint(fare)";
    let error = DryRunException {
        name: "KeyError".into(),
        message: "'Fare'".into(),
        line: Some(2),
    };
    let diagnostic = crash_diagnostic(source, &error);
    assert_eq!(diagnostic.code, Rule::DryRunCrash);
    assert_eq!(
        diagnostic.message,
        "Running this cell on a copy of the kernel raised KeyError: 'Fare' at line 2 (your kernel \
         was not changed)"
    );
    let range = diagnostic.range;
    assert_eq!(
        &source[range.start as usize..range.end as usize],
        "fare = df['Fare']"
    );
}

#[test]
fn a_crash_without_a_line_or_message_is_put_on_the_first_line() {
    let error = DryRunException {
        name: "StopIteration".into(),
        message: String::new(),
        line: None,
    };
    let diagnostic = crash_diagnostic("x = next(it)\ny = 2", &error);
    assert!(diagnostic
        .message
        .contains("raised StopIteration (your kernel"));
    assert_eq!((diagnostic.range.start, diagnostic.range.end), (0, 12));
    let past_end = DryRunException {
        line: Some(9),
        ..error
    };
    let range = crash_diagnostic("a\nbb", &past_end).range;
    assert_eq!((range.start, range.end), (2, 4));
}
