#pragma once

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::data {

// A problem with one place in an input file: "file:line: reason" (line 0: the whole file).
struct InputError {
    std::string file;
    size_t line = 0;
    std::string reason;

    std::string toString() const;
};

// Thrown for bad input; carries the place so a CLI or a dialog can show it.
class InputException : public std::runtime_error {
public:
    explicit InputException(InputError error);
    const InputError &error() const { return m_error; }

private:
    InputError m_error;
};

// Reads a whole file; throws InputException (line 0) if it cannot be read.
std::string readTextFile(const std::string &path);

// Writes a file so that a reader finds the old one or the whole new one, never a part:
// `write` fills PATH.part, which is renamed over PATH once complete. Throws
// InputException naming PATH (and why) when it cannot be written, PATH.part removed;
// an exception from `write` propagates, PATH.part removed, PATH untouched.
void writeFileAtomically(const std::string &path, const std::function<void(std::ostream &)> &write);
void writeFileAtomically(const std::string &path, std::string_view bytes);

// Calls `fn(lineNumber, line)` for each line of `text` (1-based; "\r\n" and "\n"
// endings; a UTF-8 BOM at the start is skipped). Lines that are empty or only
// white space are skipped. Stops early when fn returns false.
void forEachLine(std::string_view text, const std::function<bool(size_t, std::string_view)> &fn);

// Calls `parse(lineNumber, line)` for each line of `text` (as forEachLine). When
// `skipped` is given, an InputException from parse is recorded there and the line is
// skipped; otherwise it propagates. The readers of the JSONL record types use it.
void forEachRecordLine(std::string_view text, std::vector<InputError> *skipped,
                       const std::function<void(size_t, std::string_view)> &parse);

} // namespace rwb::data
