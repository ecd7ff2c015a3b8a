#include "store/parquetreader.h"

#include "data/jsonl.h"
#include "util/boundedjson.h"
#include "util/subprocess.h"

#include <chrono>
#include <cstdlib>
#include <stdexcept>

namespace rwb::store {

namespace {

using json = nlohmann::ordered_json;
using Clock = util::Subprocess::Clock;
using Io = util::Subprocess::Io;

// How long the interpreter may take to start and import pyarrow.
constexpr int kStartSeconds = 120;
// How long it may stay silent while it reads one table (a large file on a slow disk).
constexpr int kTableSeconds = 600;
// How much of its stderr a message quotes.
constexpr size_t kStderrQuote = 1500;

// Run with `python -c`: says hello (pyarrow's version, or why it cannot be imported) as
// one JSON line, then for each path read from stdin (its bytes in hex, one a line) either
// {"error": …} or {"columns": […], "rows": n} and n lines of JSON arrays. json.dumps
// escapes everything outside ASCII, so the pipe's encoding never matters.
constexpr const char *kScript = R"py(
import json, math, os, sys
def say(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()
try:
    import pyarrow
    import pyarrow.parquet as pq
except Exception as e:
    say({"rwb_parquet": 1, "python": sys.executable, "version": sys.version.split()[0],
         "error": "%s: %s" % (type(e).__name__, e)})
    sys.exit(0)
say({"rwb_parquet": 1, "python": sys.executable, "version": sys.version.split()[0], "pyarrow": pyarrow.__version__})
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
        table = pq.read_table(os.fsdecode(bytes.fromhex(line.strip())))
        keep = [i for i, n in enumerate(table.column_names)
                if not (n.startswith("__index_level_") and n.endswith("__"))]
        table = table.select(keep)
        lines = []
        for batch in table.to_batches(max_chunksize=1024):
            columns = [batch.column(i).to_pylist() for i in range(batch.num_columns)]
            for r in range(batch.num_rows):
                lines.append(json.dumps([plain(c[r]) for c in columns]))
    except Exception as e:
        say({"error": "%s: %s" % (type(e).__name__, e)})
        continue
    sys.stdout.write(json.dumps({"columns": table.column_names, "rows": len(lines)}) + "\n")
    for text in lines:
        sys.stdout.write(text + "\n")
    sys.stdout.flush()
)py";

// What to do when the interpreter cannot be started, or has no pyarrow.
constexpr const char *kNoPython = "name a Python that has pyarrow with --python (rwb import) or the RWB_PYTHON variable "
                                  "(the Python TRL ran in has it), or install Python 3 and pyarrow (pip install pyarrow)";
constexpr const char *kNoPyarrow = "install it there (pip install pyarrow), or name a Python that has it with --python "
                                   "(rwb import) or the RWB_PYTHON variable (the Python TRL ran in has it)";

Clock::time_point after(int seconds)
{
    return Clock::now() + std::chrono::seconds(seconds);
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

ParquetReader::ParquetReader(std::string python) : m_python(std::move(python))
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

void ParquetReader::start(const std::string &path)
{
    const std::string intro = "parquet is read with Python's pyarrow, ";
    util::Subprocess::Options o;
    o.argv = {m_python, "-c", kScript};
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
        const Io io = m_process->readLine(line, after(kStartSeconds));
        if (io == Io::Timeout)
            failed(path, intro + "and " + m_python + " did not start within " + std::to_string(kStartSeconds) + " s");
        if (io != Io::Ok) {
            m_unavailable = intro + "and " + m_python + " ended before it could import it";
            failed(path, *m_unavailable);
        }
        const json hello = util::parseJsonOrDiscarded<json>(line);
        if (!hello.is_object() || !hello.contains("rwb_parquet"))
            continue;
        if (hello.contains("error")) {
            const std::string who = hello.value("python", m_python) + " (Python " + hello.value("version", "?") + ")";
            m_unavailable = intro + "which " + who + " cannot import (" + hello.value("error", "") + "): " + kNoPyarrow;
            m_process.reset();
            throw data::InputException({path, 0, *m_unavailable});
        }
        return;
    }
    failed(path, intro + "and " + m_python + " wrote something else as it started: \"" + tailOf(line) + "\"");
}

ParquetReader::Table ParquetReader::read(const std::string &path)
{
    if (m_unavailable)
        throw data::InputException({path, 0, *m_unavailable});
    if (!m_process)
        start(path);
    if (m_process->writeLine(hexOf(path), after(kTableSeconds)) != Io::Ok)
        failed(path, m_python + " (reading parquet with pyarrow) ended before it read the file");

    std::string line;
    auto next = [&](const char *what) {
        const Io io = m_process->readLine(line, after(kTableSeconds));
        if (io == Io::Timeout)
            failed(path, m_python + " (reading parquet with pyarrow) wrote nothing for " + std::to_string(kTableSeconds)
                             + " s while reading " + what);
        if (io != Io::Ok)
            failed(path, m_python + " (reading parquet with pyarrow) ended while reading " + what);
    };
    next("the file");
    const json head = util::parseJsonOrDiscarded<json>(line);
    if (!head.is_object())
        failed(path, m_python + " (reading parquet with pyarrow) wrote something else: \"" + tailOf(line) + "\"");
    if (head.contains("error"))
        throw data::InputException({path, 0, "pyarrow cannot read it as parquet (" + head.value("error", "") + ")"});

    Table table;
    for (const json &c : head.value("columns", json::array()))
        table.columns.push_back(c.is_string() ? c.get<std::string>() : c.dump());
    const size_t rows = head.value("rows", size_t(0));
    table.rows.reserve(rows);
    for (size_t r = 0; r < rows; ++r) {
        next("its rows");
        json row = util::parseJsonOrDiscarded<json>(line);
        if (!row.is_array() || row.size() != table.columns.size()) {
            m_process.reset(); // the rest of the table is still in the pipe
            throw data::InputException({path, 0, "row " + std::to_string(r + 1) + ": "
                                                     + (row.is_discarded() ? util::tooDeepMessage() + " or is not JSON"
                                                                           : "not one value per column")});
        }
        table.rows.push_back(std::move(row));
    }
    return table;
}

} // namespace rwb::store
