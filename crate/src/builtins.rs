//! Names that exist in every IPython kernel without being defined by a cell.

/// Python 3's `builtins` module (3.8 to 3.13), sorted for binary search.
const PYTHON_BUILTINS: &[&str] = &[
    "ArithmeticError",
    "AssertionError",
    "AttributeError",
    "BaseException",
    "BaseExceptionGroup",
    "BlockingIOError",
    "BrokenPipeError",
    "BufferError",
    "BytesWarning",
    "ChildProcessError",
    "ConnectionAbortedError",
    "ConnectionError",
    "ConnectionRefusedError",
    "ConnectionResetError",
    "DeprecationWarning",
    "EOFError",
    "Ellipsis",
    "EncodingWarning",
    "EnvironmentError",
    "Exception",
    "ExceptionGroup",
    "False",
    "FileExistsError",
    "FileNotFoundError",
    "FloatingPointError",
    "FutureWarning",
    "GeneratorExit",
    "IOError",
    "ImportError",
    "ImportWarning",
    "IndentationError",
    "IndexError",
    "InterruptedError",
    "IsADirectoryError",
    "KeyError",
    "KeyboardInterrupt",
    "LookupError",
    "MemoryError",
    "ModuleNotFoundError",
    "NameError",
    "None",
    "NotADirectoryError",
    "NotImplemented",
    "NotImplementedError",
    "OSError",
    "OverflowError",
    "PendingDeprecationWarning",
    "PermissionError",
    "ProcessLookupError",
    "PythonFinalizationError",
    "RecursionError",
    "ReferenceError",
    "ResourceWarning",
    "RuntimeError",
    "RuntimeWarning",
    "StopAsyncIteration",
    "StopIteration",
    "SyntaxError",
    "SyntaxWarning",
    "SystemError",
    "SystemExit",
    "TabError",
    "TimeoutError",
    "True",
    "TypeError",
    "UnboundLocalError",
    "UnicodeDecodeError",
    "UnicodeEncodeError",
    "UnicodeError",
    "UnicodeTranslateError",
    "UnicodeWarning",
    "UserWarning",
    "ValueError",
    "Warning",
    "ZeroDivisionError",
    "__build_class__",
    "__debug__",
    "__doc__",
    "__import__",
    "__loader__",
    "__name__",
    "__package__",
    "__spec__",
    "abs",
    "aiter",
    "all",
    "anext",
    "any",
    "ascii",
    "bin",
    "bool",
    "breakpoint",
    "bytearray",
    "bytes",
    "callable",
    "chr",
    "classmethod",
    "compile",
    "complex",
    "copyright",
    "credits",
    "delattr",
    "dict",
    "dir",
    "divmod",
    "enumerate",
    "eval",
    "exec",
    "exit",
    "filter",
    "float",
    "format",
    "frozenset",
    "getattr",
    "globals",
    "hasattr",
    "hash",
    "help",
    "hex",
    "id",
    "input",
    "int",
    "isinstance",
    "issubclass",
    "iter",
    "len",
    "license",
    "list",
    "locals",
    "map",
    "max",
    "memoryview",
    "min",
    "next",
    "object",
    "oct",
    "open",
    "ord",
    "pow",
    "print",
    "property",
    "quit",
    "range",
    "repr",
    "reversed",
    "round",
    "set",
    "setattr",
    "slice",
    "sorted",
    "staticmethod",
    "str",
    "sum",
    "super",
    "tuple",
    "type",
    "vars",
    "zip",
];

/// What IPython puts in the user namespace, sorted for binary search.
const IPYTHON_NAMES: &[&str] = &[
    "In",
    "Out",
    "_",
    "__",
    "___",
    "__builtin__",
    "__builtins__",
    "_dh",
    "_i",
    "_ih",
    "_ii",
    "_iii",
    "_oh",
    "display",
    "exit",
    "get_ipython",
    "quit",
];

/// Whether a name is defined in every kernel: a Python builtin or one of IPython's own names
/// (`_5`, `_i5`, the history of outputs and inputs, included).
pub fn is_always_defined(name: &str) -> bool {
    PYTHON_BUILTINS.binary_search(&name).is_ok()
        || IPYTHON_NAMES.binary_search(&name).is_ok()
        || is_history_name(name)
}

/// Python's builtins, as candidates for a "did you mean".
pub fn python_builtins() -> impl Iterator<Item = &'static str> {
    PYTHON_BUILTINS.iter().copied()
}

/// `_5` (output 5), `_i5` (input 5).
fn is_history_name(name: &str) -> bool {
    let digits = name
        .strip_prefix("_i")
        .or_else(|| name.strip_prefix('_'))
        .unwrap_or_default();
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Python's builtin exception classes (3.11) and their bases, sorted for binary search.
/// `IOError` and `EnvironmentError` are other names of `OSError`.
const EXCEPTION_BASES: &[(&str, &[&str])] = &[
    ("ArithmeticError", &["Exception"]),
    ("AssertionError", &["Exception"]),
    ("AttributeError", &["Exception"]),
    ("BaseExceptionGroup", &["BaseException"]),
    ("BlockingIOError", &["OSError"]),
    ("BrokenPipeError", &["ConnectionError"]),
    ("BufferError", &["Exception"]),
    ("BytesWarning", &["Warning"]),
    ("ChildProcessError", &["OSError"]),
    ("ConnectionAbortedError", &["ConnectionError"]),
    ("ConnectionError", &["OSError"]),
    ("ConnectionRefusedError", &["ConnectionError"]),
    ("ConnectionResetError", &["ConnectionError"]),
    ("DeprecationWarning", &["Warning"]),
    ("EOFError", &["Exception"]),
    ("EncodingWarning", &["Warning"]),
    ("Exception", &["BaseException"]),
    ("ExceptionGroup", &["BaseExceptionGroup", "Exception"]),
    ("FileExistsError", &["OSError"]),
    ("FileNotFoundError", &["OSError"]),
    ("FloatingPointError", &["ArithmeticError"]),
    ("FutureWarning", &["Warning"]),
    ("GeneratorExit", &["BaseException"]),
    ("ImportError", &["Exception"]),
    ("ImportWarning", &["Warning"]),
    ("IndentationError", &["SyntaxError"]),
    ("IndexError", &["LookupError"]),
    ("InterruptedError", &["OSError"]),
    ("IsADirectoryError", &["OSError"]),
    ("KeyError", &["LookupError"]),
    ("KeyboardInterrupt", &["BaseException"]),
    ("LookupError", &["Exception"]),
    ("MemoryError", &["Exception"]),
    ("ModuleNotFoundError", &["ImportError"]),
    ("NameError", &["Exception"]),
    ("NotADirectoryError", &["OSError"]),
    ("NotImplementedError", &["RuntimeError"]),
    ("OSError", &["Exception"]),
    ("OverflowError", &["ArithmeticError"]),
    ("PendingDeprecationWarning", &["Warning"]),
    ("PermissionError", &["OSError"]),
    ("ProcessLookupError", &["OSError"]),
    ("RecursionError", &["RuntimeError"]),
    ("ReferenceError", &["Exception"]),
    ("ResourceWarning", &["Warning"]),
    ("RuntimeError", &["Exception"]),
    ("RuntimeWarning", &["Warning"]),
    ("StopAsyncIteration", &["Exception"]),
    ("StopIteration", &["Exception"]),
    ("SyntaxError", &["Exception"]),
    ("SyntaxWarning", &["Warning"]),
    ("SystemError", &["Exception"]),
    ("SystemExit", &["BaseException"]),
    ("TabError", &["IndentationError"]),
    ("TimeoutError", &["OSError"]),
    ("TypeError", &["Exception"]),
    ("UnboundLocalError", &["NameError"]),
    ("UnicodeDecodeError", &["UnicodeError"]),
    ("UnicodeEncodeError", &["UnicodeError"]),
    ("UnicodeError", &["ValueError"]),
    ("UnicodeTranslateError", &["UnicodeError"]),
    ("UnicodeWarning", &["Warning"]),
    ("UserWarning", &["Warning"]),
    ("ValueError", &["Exception"]),
    ("Warning", &["Exception"]),
    ("ZeroDivisionError", &["ArithmeticError"]),
];

/// The builtin exception class a builtin name holds (`IOError` is `OSError`), if it holds one.
fn exception_class(name: &str) -> Option<&'static str> {
    let name = match name {
        "IOError" | "EnvironmentError" => "OSError",
        other => other,
    };
    if name == "BaseException" {
        return Some("BaseException");
    }
    let at = EXCEPTION_BASES
        .binary_search_by(|(c, _)| c.cmp(&name))
        .ok()?;
    Some(EXCEPTION_BASES[at].0)
}

/// Does a handler of the builtin class `handler` catch an exception whose builtin classes (the
/// most derived builtin ones its type derives from) are `raised`? `None` when `handler` names
/// no builtin exception class.
pub fn exception_caught(handler: &str, raised: &[&str]) -> Option<bool> {
    let handler = exception_class(handler)?;
    fn derives(class: &str, from: &str) -> bool {
        class == from
            || EXCEPTION_BASES
                .binary_search_by(|(c, _)| c.cmp(&class))
                .is_ok_and(|at| EXCEPTION_BASES[at].1.iter().any(|b| derives(b, from)))
    }
    Some(raised.iter().any(|r| derives(r, handler)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_sorted_for_binary_search() {
        assert!(PYTHON_BUILTINS.windows(2).all(|w| w[0] < w[1]));
        assert!(IPYTHON_NAMES.windows(2).all(|w| w[0] < w[1]));
        assert!(EXCEPTION_BASES.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn builtins_and_ipython_names() {
        for name in [
            "print",
            "len",
            "ImportError",
            "__name__",
            "display",
            "In",
            "_",
            "_3",
            "_i7",
        ] {
            assert!(is_always_defined(name), "{name}");
        }
        for name in ["df", "np", "_x", "_i", "__file__", "tf_idf"] {
            assert_eq!(is_always_defined(name), name == "_i", "{name}");
        }
    }

    #[test]
    fn handlers_catch_exceptions_of_their_class_and_subclasses() {
        assert_eq!(exception_caught("LookupError", &["KeyError"]), Some(true));
        assert_eq!(
            exception_caught("Exception", &["UnicodeDecodeError"]),
            Some(true)
        );
        assert_eq!(
            exception_caught("IOError", &["FileNotFoundError"]),
            Some(true)
        );
        assert_eq!(
            exception_caught("IndexError", &["ValueError", "IndexError"]),
            Some(true)
        );
        assert_eq!(exception_caught("KeyError", &["IndexError"]), Some(false));
        assert_eq!(exception_caught("ValueError", &["TypeError"]), Some(false));
        assert_eq!(
            exception_caught("Exception", &["KeyboardInterrupt"]),
            Some(false)
        );
        assert_eq!(
            exception_caught("BaseException", &["KeyboardInterrupt"]),
            Some(true)
        );
        assert_eq!(exception_caught("print", &["TypeError"]), None);
    }
}
