"""Prints the PyTorch tables of crate/src/semantics/torch_tables.rs, read off the installed torch by
calling its own Tensor methods, `torch.*` functions and `torch.nn.functional.*` functions on small
tensors (nothing is typed by hand). torch is not a dependency of the project: run it with a Python
that has torch:

    python scripts/torch_tables.py > crate/src/semantics/torch_tables.rs

- DIM_ARGUMENTS: the dimension arguments a callable checks against the tensor's rank. For each
  positional place (0, 1, 2 after the tensor) the callable is given small tensors of 1, 2 and 3
  dimensions, the other arguments 1 (or 0 where 1 fails): the place is a dimension argument when,
  for every rank n, n - 1 and -n pass and n and -n - 1 raise IndexError "Dimension out of range"
  (bound `Rank`), or n and -n - 1 pass and n + 1 and -n - 2 raise (bound `RankPlusOne`, as
  `unsqueeze`). The keywords listed behave the same in that place.
- FLOAT_ONLY: the callables that raise RuntimeError (NotImplementedError is one) on int64, int32,
  int16, int8 and uint8 tensors of 1 and 2 dimensions, called with no argument or with `dim=0`,
  and run on float32 tensors called the same way.
"""

import warnings

import torch
import torch.nn.functional as F

warnings.filterwarnings("ignore")

KEYWORDS = ["dim", "dim0", "dim1", "start_dim", "end_dim", "source", "destination", "dims", "axis"]
INTEGER_DTYPES = [torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8]


def callables():
    """(form, name, call(tensor, args, kwargs)) for every public callable of the three forms."""
    for name in sorted(dir(torch.Tensor)):
        if not name.startswith("_") and not name.endswith("_"):
            if callable(getattr(torch.Tensor, name, None)):
                yield "Method", name, lambda x, a, k, n=name: getattr(x, n)(*a, **k)
    for form, module in (("Torch", torch), ("Functional", F)):
        for name in sorted(dir(module)):
            f = getattr(module, name)
            if name.startswith("_") or name.endswith("_"):
                continue
            if callable(f) and not isinstance(f, type):
                yield form, name, lambda x, a, k, f=f: f(x, *a, **k)


def outcome(call):
    try:
        call()
        return "ok"
    except IndexError as e:
        return "dim" if "Dimension out of range" in str(e) else "other"
    except Exception:
        return "other"


def dim_bound(call, arity, at, keyword=None, fill=1):
    """'Rank' or 'RankPlusOne' when place `at` (or `keyword`) is checked against the rank."""
    seen = {}
    for rank in (1, 2, 3):
        shape = (2, 3, 4)[:rank]

        def run(d):
            args, kwargs = [fill] * arity, {}
            if keyword:
                args, kwargs = args[:at], {keyword: d}
            else:
                args[at] = d
            return outcome(lambda: call(torch.randn(*shape), args, kwargs))

        seen[rank] = [run(d) for d in (rank - 1, rank, rank + 1, -rank, -rank - 1, -rank - 2)]
    if all(s[0] == "ok" and s[1] == "dim" and s[3] == "ok" and s[4] == "dim" for s in seen.values()):
        return "Rank"
    if all(s[1] == "ok" and s[2] == "dim" and s[4] == "ok" and s[5] == "dim" for s in seen.values()):
        return "RankPlusOne"
    return None


def dim_arguments():
    for form, name, call in callables():
        for at in range(3):
            for arity in range(at + 1, 4):
                fill = next((f for f in (1, 0) if dim_bound(call, arity, at, fill=f)), None)
                if fill is None:
                    continue
                bound = dim_bound(call, arity, at, fill=fill)
                keywords = [k for k in KEYWORDS if dim_bound(call, arity, at, k, fill) == bound]
                yield form, name, at, keywords, bound
                break


def runtime_error(call):
    try:
        call()
        return "ok"
    except RuntimeError:
        return "runtime"
    except Exception:
        return "other"


def float_only():
    for form, name, call in callables():
        for kwargs in ({}, {"dim": 0}):
            floats = [
                runtime_error(lambda d=d: call(torch.ones(d, dtype=torch.float32), (), kwargs))
                for d in ((3,), (2, 2))
            ]
            if floats != ["ok", "ok"]:
                continue
            ints = [
                runtime_error(lambda d=d, t=t: call(torch.ones(d, dtype=t), (), kwargs))
                for d in ((3,), (2, 2))
                for t in INTEGER_DTYPES
            ]
            if all(i == "runtime" for i in ints):
                yield form, name
            break


def main():
    print(
        f"//! Tables read off torch {torch.__version__.split('+')[0]} by `scripts/torch_tables.py`"
        " (generated: edit the script, not this file)."
    )
    print()
    print("use super::torch_objects::{Bound, DimArgument, Form};")
    print()
    print("/// The dimension arguments each callable checks against the tensor's rank (IndexError).")
    print("pub(crate) const DIM_ARGUMENTS: &[DimArgument] = &[")
    for form, name, at, keywords, bound in dim_arguments():
        kws = ", ".join(f'"{k}"' for k in keywords)
        print(
            f'    DimArgument {{ form: Form::{form}, name: "{name}", at: {at}, '
            f"keywords: &[{kws}], bound: Bound::{bound} }},"
        )
    print("];")
    print()
    print("/// Callables that reject tensors of integer dtypes (RuntimeError).")
    print("pub(crate) const FLOAT_ONLY: &[(Form, &str)] = &[")
    for form, name in float_only():
        print(f'    (Form::{form}, "{name}"),')
    print("];")


if __name__ == "__main__":
    main()
