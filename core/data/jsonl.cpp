#include "data/jsonl.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace rwb::data {

std::string InputError::toString() const
{
    std::string s = file;
    if (line > 0)
        s += ":" + std::to_string(line);
    s += ": " + reason;
    return s;
}

InputException::InputException(InputError error)
    : std::runtime_error(error.toString()), m_error(std::move(error))
{
}

std::string readTextFile(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputException({path, 0, std::string("cannot open: ") + std::strerror(errno)});
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad())
        throw InputException({path, 0, "read error"});
    return ss.str();
}

void writeFileAtomically(const std::string &path, const std::function<void(std::ostream &)> &write)
{
    const std::string part = path + ".part";
    std::error_code ec;
    {
        std::ofstream out(part, std::ios::binary | std::ios::trunc);
        if (!out)
            throw InputException({path, 0, std::string("cannot write: ") + std::strerror(errno)});
        try {
            write(out);
        } catch (...) {
            out.close();
            std::filesystem::remove(part, ec);
            throw;
        }
        out.close();
        if (!out) {
            std::filesystem::remove(part, ec);
            throw InputException({path, 0, "write failed (disk full?)"});
        }
    }
    std::filesystem::rename(part, path, ec);
    if (ec) {
        const std::string why = ec.message();
        std::filesystem::remove(part, ec);
        throw InputException({path, 0, "cannot write: " + why});
    }
}

void writeFileAtomically(const std::string &path, std::string_view bytes)
{
    writeFileAtomically(path, [&](std::ostream &out) { out.write(bytes.data(), static_cast<std::streamsize>(bytes.size())); });
}

void forEachLine(std::string_view text, const std::function<bool(size_t, std::string_view)> &fn)
{
    if (text.substr(0, 3) == "\xEF\xBB\xBF")
        text.remove_prefix(3);
    size_t lineNo = 0;
    while (!text.empty()) {
        ++lineNo;
        const size_t nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (line.find_first_not_of(" \t") == std::string_view::npos)
            continue;
        if (!fn(lineNo, line))
            return;
    }
}

void forEachRecordLine(std::string_view text, std::vector<InputError> *skipped,
                       const std::function<void(size_t, std::string_view)> &parse)
{
    forEachLine(text, [&](size_t lineNo, std::string_view line) {
        try {
            parse(lineNo, line);
        } catch (const InputException &e) {
            if (!skipped)
                throw;
            skipped->push_back(e.error());
        }
        return true;
    });
}

} // namespace rwb::data
