#include "store/parquetreader.h"

#include "data/jsonl.h"
#include "util/boundedjson.h"
#include "util/subprocess.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <tuple>

namespace rwb::store {

namespace {

using json = nlohmann::ordered_json;
using Clock = util::Subprocess::Clock;
using Io = util::Subprocess::Io;

// How much of its stderr a message quotes.
constexpr size_t kStderrQuote = 1500;
// The most rows a table's count makes room for at once; more grow as they come.
constexpr size_t kReserveRows = 1 << 16;

// Run with `python -c SCRIPT MAX_ROWS MAX_BYTES`: says hello (pyarrow's version and whether
// pyarrow_hotfix is imported, or why pyarrow cannot be imported) as one JSON line, then for
// each path read from stdin (its bytes in hex, one a line) answers {"error": …}, {"limit":
// "rows", "rows": n} or {"limit": "bytes", "bytes": n} (the file's metadata is past a cap),
// or {"columns": […], "rows": n} and n lines of JSON arrays, streamed a batch at a time;
// when pyarrow fails after the first rows went out, an {"error": …} line ends the table.
// json.dumps escapes everything outside ASCII, so the pipe's encoding never matters.
//
// `python -c` puts "" (the folder it runs in) first on sys.path, where a json.py or a
// pyarrow.py of the user's would be imported: the script takes it out, with "." and the
// folder itself, before it imports anything (sys and posix are built in). Not `-I`: it
// also leaves out the user's site-packages, where pyarrow often is.
constexpr const char *kScript = R"py(
import sys
try:
    import posix
    here = posix.getcwd()
except Exception:
    here = None
sys.path[:] = [p for p in sys.path if p not in ("", ".") and not (here and p.rstrip("/") == here.rstrip("/"))]
import os
if here:
    here = os.path.realpath(here)
    sys.path[:] = [p for p in sys.path if os.path.realpath(p) != here]
import json, math
max_rows, max_bytes = int(sys.argv[1]), int(sys.argv[2])
def say(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()
def why(e):
    return "%s: %s" % (type(e).__name__, e)
try:
    import pyarrow
    import pyarrow.parquet as pq
except Exception as e:
    say({"rwb_parquet": 1, "python": sys.executable, "version": sys.version.split()[0], "error": why(e)})
    sys.exit(0)
# pyarrow 0.14 to 14.0.0 runs code a crafted file carries (CVE-2023-47248); importing
# pyarrow_hotfix, where it is installed, turns that off.
try:
    import pyarrow_hotfix
    hotfix = True
except Exception:
    hotfix = False
say({"rwb_parquet": 1, "python": sys.executable, "version": sys.version.split()[0], "pyarrow": pyarrow.__version__,
     "hotfix": hotfix})
def plain(v):
    if isinstance(v, float):
        return v if math.isfinite(v) else None
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, dict):
        return {str(k): plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, (bytes, bytearray)):
        return bytes(v).decode("utf-8", "replace")
    if hasattr(v, "isoformat"):
        return v.isoformat()
    return str(v)
for line in sys.stdin:
    try:
        f = pq.ParquetFile(os.fsdecode(bytes.fromhex(line.strip())))
        meta = f.metadata
        rows = meta.num_rows
        size = sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))
        names = f.schema_arrow.names
    except Exception as e:
        say({"error": why(e)})
        continue
    if rows > max_rows:
        say({"limit": "rows", "rows": rows})
        continue
    if size > max_bytes:
        say({"limit": "bytes", "bytes": size})
        continue
    keep = [i for i, n in enumerate(names) if not (n.startswith("__index_level_") and n.endswith("__"))]
    say({"columns": [names[i] for i in keep], "rows": rows})
    sent = 0
    try:
        for batch in f.iter_batches(batch_size=1024):
            columns = [batch.column(i).to_pylist() for i in keep]
            n = min(batch.num_rows, rows - sent)
            sys.stdout.write("".join(json.dumps([plain(c[r]) for c in columns]) + "\n" for r in range(n)))
            sent += n
        if sent < rows:
            raise EOFError("the metadata counts %d rows, the file holds %d" % (rows, sent))
    except Exception as e:
        say({"error": why(e)})
        continue
    sys.stdout.flush()
)py";

// What to do when the interpreter cannot be started, or has no pyarrow.
constexpr const char *kNoPython = "name a Python that has pyarrow with --python (rwb import) or the RWB_PYTHON variable "
                                  "(the Python TRL ran in has it), or install Python 3 and pyarrow (pip install pyarrow)";
constexpr const char *kOldPyarrow = "install pyarrow 14.0.1 or later there (pip install -U pyarrow) or pyarrow_hotfix "
                                    "(pip install pyarrow_hotfix), or name another Python with --python (rwb import) or "
                                    "the RWB_PYTHON variable";
constexpr const char *kNoPyarrow = "install it there (pip install pyarrow), or name a Python that has it with --python "
                                   "(rwb import) or the RWB_PYTHON variable (the Python TRL ran in has it)";

Clock::time_point after(std::chrono::seconds limit)
{
    return Clock::now() + limit;
}

// A text field of the interpreter's answer; `fallback` where it is not text.
std::string textOf(const json &o, const char *key, const std::string &fallback = {})
{
    auto it = o.find(key);
    return it != o.end() && it->is_string() ? it->get<std::string>() : fallback;
}

// A count of the interpreter's answer (rows, bytes); none where it is not a whole number ≥ 0.
std::optional<uint64_t> countOf(const json &o, const char *key)
{
    auto it = o.find(key);
    if (it == o.end() || !it->is_number_unsigned()) // nlohmann reads a whole number ≥ 0 as unsigned
        return std::nullopt;
    return it->get<uint64_t>();
}

// Whether pyarrow `version` ("14.0.1", "13.0.0.dev42") is 14.0.1 or later, the first not
// to run code a crafted file carries (CVE-2023-47248); none when it is no version.
std::optional<bool> pyarrowFixed(const std::string &version)
{
    int parts[3] = {0, 0, 0};
    size_t at = 0;
    for (int i = 0; i < 3; ++i) {
        const auto [end, ec] = std::from_chars(version.data() + at, version.data() + version.size(), parts[i]);
        if (ec != std::errc()) {
            if (i == 0)
                return std::nullopt;
            break;
        }
        at = static_cast<size_t>(end - version.data());
        if (at >= version.size() || version[at] != '.')
            break;
        ++at;
    }
    return std::make_tuple(parts[0], parts[1], parts[2]) >= std::make_tuple(14, 0, 1);
}

std::string tooMany(uint64_t count, const char *what, uint64_t most)
{
    return "the table has " + std::to_string(count) + " " + what + ", more than the " + std::to_string(most)
           + " rwb import reads from one table: split it into smaller files";
}

std::string hexOf(const std::string &bytes)
{
    static const char *const kDigits = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (unsigned char c : bytes) {
        out += kDigits[c >> 4];
        out += kDigits[c & 15];
    }
    return out;
}

std::string tailOf(std::string text)
{
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' '))
        text.pop_back();
    if (text.size() <= kStderrQuote)
        return text;
    size_t cut = text.size() - kStderrQuote;
    while (cut < text.size() && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        ++cut;
    return "…" + text.substr(cut);
}

} // namespace

ParquetReader::ParquetReader(std::string python, ParquetLimits limits)
    : m_python(std::move(python)), m_limits(limits)
{
    if (m_python.empty()) {
        const char *env = std::getenv("RWB_PYTHON");
        m_python = env && *env ? env : "python3";
    }
}

ParquetReader::~ParquetReader() = default;

void ParquetReader::failed(const std::string &path, const std::string &what)
{
    std::string message = what;
    if (m_process) {
        const util::ExitStatus status = m_process->kill();
        message += " (" + status.describe() + ")";
        if (const std::string tail = tailOf(m_process->takeStderr()); !tail.empty())
            message += ":\n" + tail;
        m_process.reset();
    }
    throw data::InputException({path, 0, message});
}

void ParquetReader::abandon(const std::string &path, const std::string &what)
{
    m_process.reset(); // kills and reaps it
    throw data::InputException({path, 0, what});
}

void ParquetReader::start(const std::string &path)
{
    const std::string intro = "parquet is read with Python's pyarrow, ";
    util::Subprocess::Options o;
    o.argv = {m_python, "-c", kScript, std::to_string(m_limits.maxRows), std::to_string(m_limits.maxBytes)};
    // Python 3.11 and later leave the working folder off sys.path (the script does it for
    // the older ones).
    o.env = {{"PYTHONSAFEPATH", "1"}};
    try {
        m_process = std::make_unique<util::Subprocess>(o);
    } catch (const std::exception &e) { // "cannot start python3.99: No such file or directory"
        m_unavailable = intro + "and " + e.what() + ": " + kNoPython;
        throw data::InputException({path, 0, *m_unavailable});
    }
    // The hello is the first JSON object line with "rwb_parquet"; a few lines before it
    // (what a sitecustomize prints) are passed over.
    std::string line;
    for (int skipped = 0; skipped < 20; ++skipped) {
        const Io io = m_process->readLine(line, after(m_limits.startTimeout));
        if (io == Io::Timeout)
            failed(path, intro + "and " + m_python + " did not start within "
                             + std::to_string(m_limits.startTimeout.count()) + " s");
        if (io == Io::TooLong)
            failed(path, intro + "and " + m_python + " wrote a line of more than "
                             + std::to_string(util::Subprocess::kMaxLine >> 20) + " MiB as it started");
        if (io != Io::Ok) {
            m_unavailable = intro + "and " + m_python + " ended before it could import it";
            failed(path, *m_unavailable);
        }
        const json hello = util::parseJsonOrDiscarded<json>(line);
        if (!hello.is_object() || !hello.contains("rwb_parquet"))
            continue;
        const std::string who = textOf(hello, "python", m_python) + " (Python " + textOf(hello, "version", "?") + ")";
        if (hello.contains("error")) {
            m_unavailable = intro + "which " + who + " cannot import (" + textOf(hello, "error") + "): " + kNoPyarrow;
            m_process.reset();
            throw data::InputException({path, 0, *m_unavailable});
        }
        // pyarrow 0.14 to 14.0.0 runs code a crafted parquet file carries; pyarrow_hotfix
        // (imported by the script where it is installed) turns that off.
        const std::string version = textOf(hello, "pyarrow");
        const std::optional<bool> fixed = pyarrowFixed(version);
        const bool hotfix = hello.contains("hotfix") && hello["hotfix"].is_boolean() && hello["hotfix"].get<bool>();
        if (!hotfix && !fixed.value_or(false)) {
            m_unavailable = intro + "and " + who + " has "
                            + (fixed ? "pyarrow " + version + ", which runs"
                                     : "pyarrow of an unknown version (\"" + version + "\"), which may run")
                            + " code a crafted parquet file carries (CVE-2023-47248): " + kOldPyarrow;
            abandon(path, *m_unavailable);
        }
        return;
    }
    failed(path, intro + "and " + m_python + " wrote something else as it started: \"" + tailOf(line) + "\"");
}

ParquetReader::Table ParquetReader::read(const std::string &path)
{
    // The table's rows are let go as the exception leaves readTable, before the message
    // is made.
    try {
        return readTable(path);
    } catch (const std::bad_alloc &) {
    } catch (const std::length_error &) {
    }
    abandon(path, "the table does not fit in memory: split it into smaller files");
}

ParquetReader::Table ParquetReader::readTable(const std::string &path)
{
    if (m_unavailable)
        throw data::InputException({path, 0, *m_unavailable});
    if (!m_process)
        start(path);
    const std::string who = m_python + " (reading parquet with pyarrow)";
    if (m_process->writeLine(hexOf(path), after(m_limits.readTimeout)) != Io::Ok)
        failed(path, who + " ended before it read the file");

    std::string line;
    auto next = [&](const char *what) {
        const Io io = m_process->readLine(line, after(m_limits.readTimeout));
        if (io == Io::Timeout)
            failed(path, who + " wrote nothing for " + std::to_string(m_limits.readTimeout.count())
                             + " s while reading " + what);
        if (io == Io::TooLong)
            failed(path, who + " wrote a line of more than " + std::to_string(util::Subprocess::kMaxLine >> 20)
                             + " MiB while reading " + what + ": a row that long (as JSON text) is not read");
        if (io != Io::Ok)
            failed(path, who + " ended while reading " + what);
    };
    next("the file");
    const json head = util::parseJsonOrDiscarded<json>(line);
    if (!head.is_object())
        failed(path, who + " wrote something else: \"" + tailOf(line) + "\"");
    if (head.contains("error"))
        throw data::InputException(
            {path, 0, "pyarrow cannot read it as parquet (" + textOf(head, "error", head["error"].dump()) + ")"});
    if (textOf(head, "limit") == "rows")
        throw data::InputException({path, 0, tooMany(countOf(head, "rows").value_or(0), "rows", m_limits.maxRows)});
    if (textOf(head, "limit") == "bytes")
        throw data::InputException(
            {path, 0, tooMany(countOf(head, "bytes").value_or(0), "bytes of column data (uncompressed)", m_limits.maxBytes)});
    const std::optional<uint64_t> rows = countOf(head, "rows");
    if (!rows || !head.contains("columns") || !head["columns"].is_array())
        failed(path, who + " wrote something else: \"" + tailOf(line) + "\"");
    if (*rows > m_limits.maxRows)
        abandon(path, tooMany(*rows, "rows", m_limits.maxRows));

    Table table;
    for (const json &c : head["columns"])
        table.columns.push_back(c.is_string() ? c.get<std::string>() : c.dump());
    table.rows.reserve(std::min<uint64_t>(*rows, kReserveRows));
    uint64_t bytes = 0;
    for (uint64_t r = 0; r < *rows; ++r) {
        next("its rows");
        bytes += line.size() + 1;
        if (bytes > m_limits.maxBytes)
            abandon(path, "the table's rows come to more than " + std::to_string(m_limits.maxBytes)
                              + " bytes as JSON text (by row " + std::to_string(r + 1)
                              + "), the most rwb import reads from one table: split it into smaller files");
        json row = util::parseJsonOrDiscarded<json>(line);
        if (row.is_object() && row.contains("error")) // pyarrow failed after the first rows; nothing more comes
            throw data::InputException({path, 0, "pyarrow cannot read it as parquet ("
                                                     + textOf(row, "error", row["error"].dump()) + "), after "
                                                     + std::to_string(r) + " rows"});
        if (!row.is_array() || row.size() != table.columns.size())
            abandon(path, "row " + std::to_string(r + 1) + ": "
                              + (row.is_discarded() ? util::tooDeepMessage() + " or is not JSON" : "not one value per column"));
        table.rows.push_back(std::move(row));
    }
    return table;
}

} // namespace rwb::store
