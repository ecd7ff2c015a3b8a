"""Runs a user's Python reward functions for Reward Workbench's `python` reward component.

    python3 -u rwb_reward_worker.py [--require NAME[,NAME…]] FILE

The engine embeds this file in its binary (core/reward/python/) and starts it as
`python3 -u -c BOOT N [--require …] FILE`, writing this script's N bytes to the worker's
stdin ahead of the first request (see the engine's pythonworker.cpp). Run by hand as
above it behaves the same: type requests on stdin, one JSON object per line.

The protocol (docs/python-rewards.md): newline-delimited JSON, one object per line.
The worker loads FILE as a module (its folder first on sys.path), then writes a hello:

    {"ready": true, "protocol": 1, "python": "3.11.2", "pid": 1234, "file": …, "functions": [...]}
    {"ready": false, "error": "SyntaxError: …", "file": …, "line": 3, "traceback": "…"}

and answers each request line

    {"id", "function", "signature": "trl" | "verl", "prompts", "completions",
     "completion_ids"?, "columns": {name: [values]}, "trainer_state": {…}}

with one reply line

    {"id", "rewards": [number | null, …], "item_errors": [null | text, …],
     "extra": {name: [values]}, "metrics": {name: number},
     "error": null | {"message", "traceback", "whole_batch"}, "seconds"}

It keeps the real stdout (a duplicate of fd 1) for the protocol and points fd 1 and
sys.stdout at stderr, so that whatever the user's code prints, from Python or from C,
cannot corrupt the channel; fd 0 and sys.stdin read /dev/null.

Needs nothing beyond the standard library; runs on Python 3.8 and later.
"""

import asyncio
import faulthandler
import importlib.util
import inspect
import json
import math
import numbers
import os
import sys
import time
import traceback

PROTOCOL = 1
# The name this file's code carries in tracebacks (the engine compiles it under this
# name); frames of this file are cut from the tracebacks sent to the engine.
WORKER_FILE = "rwb_reward_worker.py"
# Keyword arguments a TRL reward function gets from the trainer itself: a dataset
# column of one of these names is not passed (as in TRL, which drops "prompt",
# "completion" and "completion_ids" and would fail on the others).
TRL_RESERVED = frozenset(
    ["prompts", "completions", "completion_ids", "trainer_state", "log_extra", "log_metric",
     "prompt", "completion"])
# How much of a value an error message quotes.
QUOTE_CHARS = 80


class TrainerState(object):
    """What TRL's `trainer_state` is to a reward function: attributes (global_step,
    max_steps, epoch, …) from the request's "trainer_state" object. An attribute the
    engine did not send is None."""

    def __init__(self, fields):
        self.__dict__.update(fields)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return None

    def __repr__(self):
        return "TrainerState(%s)" % ", ".join("%s=%r" % kv for kv in sorted(self.__dict__.items()))


def is_hidden_frame(filename):
    """This file's frames and those of Python's import machinery: not the user's."""
    return os.path.basename(filename) == WORKER_FILE or filename.startswith("<frozen ")


def format_exception(exc):
    """The exception's traceback (and those it chains) without frames of this file or of
    the import machinery, as text."""
    top = traceback.TracebackException(type(exc), exc, exc.__traceback__)
    seen = set()
    pending = [top]
    while pending:
        te = pending.pop()
        if id(te) in seen:
            continue
        seen.add(id(te))
        te.stack = traceback.StackSummary.from_list([f for f in te.stack if not is_hidden_frame(f.filename)])
        pending.extend(t for t in (te.__cause__, te.__context__) if t is not None)
    return "".join(top.format())


def exception_line(exc):
    """"ValueError: bad value": the last line of a traceback."""
    return "".join(traceback.format_exception_only(type(exc), exc)).strip().splitlines()[-1]


def quote(value):
    text = repr(value)
    if len(text) > QUOTE_CHARS:
        text = text[:QUOTE_CHARS - 1] + "…"
    return text


def jsonable(value, depth=0):
    """A value JSON can carry: numpy and torch scalars as numbers, NaN and infinities as
    None, tuples and sets as lists, anything else unknown as its str()."""
    if depth > 64:
        return str(value)
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): jsonable(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [jsonable(v, depth + 1) for v in value]
    if hasattr(value, "tolist") and callable(value.tolist):  # numpy arrays and scalars, torch tensors
        try:
            return jsonable(value.tolist(), depth + 1)
        except Exception:
            pass
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return jsonable(float(value), depth + 1)
    return str(value)


def is_bool(value):
    # numpy.bool_ is not a bool subclass, nor a number.
    return isinstance(value, bool) or type(value).__name__ in ("bool_", "bool8")


def as_reward(value, index):
    """(number or None, error or None) for one item of a function's result."""
    if value is None:
        return None, None
    if is_bool(value):
        return None, "reward %d is a bool (%r), not a number (a bool is not a reward)" % (index, value)
    if not isinstance(value, numbers.Real) and hasattr(value, "item") and callable(value.item):
        try:  # a 0-d numpy array or torch tensor
            value = value.item()
        except Exception:
            pass
        if is_bool(value):
            return None, "reward %d is a bool (%r), not a number (a bool is not a reward)" % (index, value)
    if isinstance(value, numbers.Real):
        try:
            number = float(value)
        except (OverflowError, ValueError, TypeError):  # 10**400: an int too large for a float
            return None, "reward %d (%s) cannot be read as a float" % (index, quote(value))
        if math.isnan(number):
            return None, None
        if math.isinf(number):
            return None, "reward %d is %s, not a finite number" % (index, number)
        return number, None
    return None, "reward %d is a %s (%s), not a number" % (index, type(value).__name__, quote(value))


def call_arguments(function, arguments):
    """The keyword arguments `function` accepts: all of them when it takes **kwargs (or
    its signature cannot be read), else only those it names."""
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return arguments
    if any(p.kind == p.VAR_KEYWORD for p in parameters):
        return arguments
    names = {p.name for p in parameters if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    return {k: v for k, v in arguments.items() if k in names}


def await_if_needed(result):
    if inspect.isawaitable(result):
        async def wait():
            return await result
        return asyncio.run(wait())
    return result


class Reply(object):
    def __init__(self, request_id, n):
        self.id = request_id
        self.n = n
        self.rewards = [None] * n
        self.item_errors = [None] * n
        self.extra = {}
        self.metric_sums = {}
        self.metric_counts = {}
        self.problems = []       # one line each: what went wrong besides an exception
        self.exception = None    # (message, traceback) of the batch's (first) exception
        self.whole_batch = False # the error is every item's (no value could be had)

    def fail(self, message, trace=None):
        self.rewards = [None] * self.n
        self.whole_batch = True
        if self.exception is None:
            self.exception = (message, trace)

    def log_extra(self, name, values):
        """TRL's log_extra(column, values): values for this batch's completions."""
        values = list(values) if not isinstance(values, (str, bytes)) else [values]
        self.extra.setdefault(str(name), []).extend(jsonable(v) for v in values)

    def log_metric(self, name, value):
        """TRL's log_metric(name, value): a number for this batch; several calls average."""
        number, error = as_reward(value, 0)
        if number is None:
            self.problems.append("log_metric(%r) was given %s, not a finite number" % (name, quote(value)))
            return
        name = str(name)
        self.metric_sums[name] = self.metric_sums.get(name, 0.0) + number
        self.metric_counts[name] = self.metric_counts.get(name, 0) + 1

    def to_json(self):
        extra = {}
        for name, values in self.extra.items():
            if len(values) != self.n:
                self.problems.append("log_extra(%r) got %d values for %d completions" % (name, len(values), self.n))
                values = (values + [None] * self.n)[:self.n]
            extra[name] = values
        problems = [e for e in self.item_errors if e] + self.problems
        error = None
        if self.exception is not None:
            message, trace = self.exception
            if problems:
                message += " (and: " + "; ".join(p.splitlines()[0] for p in problems) + ")"
            error = {"message": message, "traceback": trace, "whole_batch": self.whole_batch}
        elif problems:
            error = {"message": "; ".join(p.splitlines()[0] for p in problems), "traceback": None,
                     "whole_batch": False}
        return {
            "id": self.id,
            "rewards": self.rewards,
            "item_errors": self.item_errors,
            "extra": extra,
            "metrics": {k: self.metric_sums[k] / self.metric_counts[k] for k in self.metric_sums},
            "error": error,
        }


def column_list(columns, name, n):
    values = columns.get(name)
    if values is None:
        return [None] * n
    return values


def run_trl(function, request, reply):
    n = reply.n
    arguments = {}
    for name, values in (request.get("columns") or {}).items():
        if name not in TRL_RESERVED:
            arguments[name] = values
    arguments["prompts"] = request.get("prompts")
    arguments["completions"] = request.get("completions")
    arguments["completion_ids"] = request.get("completion_ids")
    arguments["trainer_state"] = TrainerState(request.get("trainer_state") or {})
    arguments["log_extra"] = reply.log_extra
    arguments["log_metric"] = reply.log_metric
    try:
        result = await_if_needed(function(**call_arguments(function, arguments)))
    except BaseException as exc:  # a reward function's sys.exit() must not end the worker
        reply.fail(exception_line(exc), format_exception(exc))
        return
    if result is not None and not isinstance(result, (list, tuple)) and hasattr(result, "tolist"):
        result = result.tolist()  # a numpy array or a torch tensor
    if not isinstance(result, (list, tuple)):
        reply.fail("%s returned a %s (%s), not a list of rewards" % (function.__name__, type(result).__name__,
                                                                     quote(result)))
        return
    if len(result) != n:
        reply.fail("%s returned %d rewards for %d completions" % (function.__name__, len(result), n))
        return
    for i, value in enumerate(result):
        reply.rewards[i], reply.item_errors[i] = as_reward(value, i)


def run_verl(function, request, reply):
    n = reply.n
    columns = request.get("columns") or {}
    data_source = column_list(columns, "data_source", n)
    ground_truth = column_list(columns, "ground_truth", n)
    extra_info = column_list(columns, "extra_info", n)
    completions = request.get("completions")
    extra_rows = []
    failures = 0
    for i in range(n):
        arguments = {"data_source": data_source[i], "solution_str": completions[i],
                     "ground_truth": ground_truth[i], "extra_info": extra_info[i]}
        try:
            result = await_if_needed(function(**call_arguments(function, arguments)))
        except BaseException as exc:
            failures += 1
            message = exception_line(exc)
            trace = format_exception(exc)
            reply.item_errors[i] = "item %d: %s\n%s" % (i, message, trace)
            if reply.exception is None:
                reply.exception = ("item %d: %s" % (i, message), trace)
            continue
        if isinstance(result, dict):
            if "score" not in result:
                reply.item_errors[i] = "item %d: %s returned a dict without \"score\" (keys: %s)" % (
                    i, function.__name__, ", ".join(sorted(map(str, result))))
                continue
            for key, value in result.items():
                if key != "score":
                    extra_rows.append((i, str(key), jsonable(value)))
            result = result["score"]
        reply.rewards[i], reply.item_errors[i] = as_reward(result, i)
    names = []
    for _, key, _ in extra_rows:
        if key not in names:
            names.append(key)
    for key in names:
        reply.extra[key] = [None] * n
    for i, key, value in extra_rows:
        reply.extra[key][i] = value
    if failures > 1 and reply.exception is not None:
        message, trace = reply.exception
        reply.exception = ("%s (%d of %d items raised)" % (message, failures, n), trace)


def handle(module, request):
    request_id = request.get("id")
    completions = request.get("completions")
    if not isinstance(completions, list):
        reply = Reply(request_id, 0)
        reply.fail("the request has no \"completions\" list")
        return reply
    reply = Reply(request_id, len(completions))
    name = request.get("function")
    function = getattr(module, name, None) if isinstance(name, str) else None
    if not callable(function):
        reply.fail("%s defines no function %r" % (module.__file__, name))
        return reply
    prompts = request.get("prompts")
    if not isinstance(prompts, list) or len(prompts) != reply.n:
        reply.fail("the request's \"prompts\" do not match its %d completions" % reply.n)
        return reply
    for column, values in (request.get("columns") or {}).items():
        if not isinstance(values, list) or len(values) != reply.n:
            reply.fail("the request's column %r does not have one value per completion" % column)
            return reply
    signature = request.get("signature", "trl")
    if signature == "trl":
        run_trl(function, request, reply)
    elif signature == "verl":
        run_verl(function, request, reply)
    else:
        reply.fail("unknown signature %r (allowed: trl, verl)" % (signature,))
    return reply


class Channel(object):
    """The protocol's ends: duplicates of fd 0 and fd 1 taken before anything else runs.
    Afterwards fd 0 reads /dev/null and fd 1 writes to stderr."""

    def __init__(self):
        self.inp = os.fdopen(os.dup(0), "rb")
        self.out = os.fdopen(os.dup(1), "wb", buffering=0)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        os.dup2(2, 1)
        sys.stdin = open(os.devnull, "r")
        sys.stdout = sys.stderr

    def send(self, obj):
        text = json.dumps(obj, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        self.out.write(text.encode("utf-8", "replace") + b"\n")

    def receive(self):
        return self.inp.readline()


def load(path):
    """The user's file as a module, under its own name (or a private one when that name
    is taken: a file named json.py must not replace the json this worker uses)."""
    folder = os.path.dirname(os.path.abspath(path))
    if folder not in sys.path:
        sys.path.insert(0, folder)
    stem = os.path.splitext(os.path.basename(path))[0]
    name = stem if stem.isidentifier() and stem not in sys.modules else "_rwb_user_" + "".join(
        c if c.isalnum() else "_" for c in stem)
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError("%s cannot be loaded as a Python module" % path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def failure_hello(exc, path):
    """The hello of a file that did not load: where it failed, and why."""
    where_file, where_line = path, None
    if isinstance(exc, SyntaxError) and exc.filename:
        where_file, where_line = exc.filename, exc.lineno
    else:
        tb = exc.__traceback__
        while tb is not None:
            name = tb.tb_frame.f_code.co_filename
            if not name.startswith("<") and not is_hidden_frame(name):
                where_file, where_line = name, tb.tb_lineno
            tb = tb.tb_next
    return {"ready": False, "protocol": PROTOCOL, "error": exception_line(exc), "file": where_file,
            "line": where_line, "traceback": format_exception(exc)}


def public_functions(module):
    return sorted(name for name, value in vars(module).items()
                  if not name.startswith("__") and callable(value) and not isinstance(value, type))


def main(argv):
    channel = Channel()
    faulthandler.enable(file=sys.stderr)  # a crash in C code leaves a Python traceback in the stderr tail
    try:
        sys.stderr.reconfigure(errors="backslashreplace")
    except Exception:
        pass
    required = []
    args = list(argv)
    if len(args) >= 2 and args[0] == "--require":
        required = [name for name in args[1].split(",") if name]
        args = args[2:]
    if len(args) != 1:
        channel.send({"ready": False, "protocol": PROTOCOL, "file": None, "line": None, "traceback": None,
                      "error": "usage: rwb_reward_worker.py [--require NAME[,NAME...]] FILE"})
        return 2
    path = os.path.abspath(args[0])
    try:
        if not os.path.isfile(path):
            raise FileNotFoundError("%s does not exist" % path)
        module = load(path)
    except BaseException as exc:
        channel.send(failure_hello(exc, path))
        return 1
    functions = public_functions(module)
    missing = [name for name in required if name not in functions]
    if missing:
        channel.send({"ready": False, "protocol": PROTOCOL, "file": path, "line": None, "traceback": None,
                      "functions": functions,
                      "error": "%s defines no function %s (it defines: %s)" % (
                          path, ", ".join(repr(m) for m in missing), ", ".join(functions) or "none")})
        return 1
    channel.send({"ready": True, "protocol": PROTOCOL, "python": "%d.%d.%d" % sys.version_info[:3],
                  "pid": os.getpid(), "file": path, "functions": functions})
    while True:
        line = channel.receive()
        if not line:
            return 0  # the engine closed our stdin: it is done with us
        if not line.strip():
            continue
        started = time.monotonic()
        try:
            request = json.loads(line)
            if not isinstance(request, dict):
                raise ValueError("a request is a JSON object")
        except ValueError as exc:
            reply = Reply(None, 0)
            reply.fail("the request is not valid JSON: %s" % exc)
        else:
            try:
                reply = handle(module, request)
            except Exception as exc:  # a bug here, not the user's: the batch fails, the worker goes on
                reply = Reply(request.get("id"), len(request.get("completions") or []))
                reply.fail("the worker could not handle the request: %s" % exception_line(exc))
        try:
            answer = reply.to_json()
            answer["seconds"] = round(time.monotonic() - started, 6)
            channel.send(answer)
        except (TypeError, ValueError, OverflowError) as exc:  # a value json cannot write (inf in a metric)
            failed = Reply(reply.id, reply.n)
            failed.fail("the reply could not be written as JSON: %s" % exception_line(exc))
            answer = failed.to_json()
            answer["seconds"] = round(time.monotonic() - started, 6)
            channel.send(answer)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
