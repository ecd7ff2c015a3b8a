#include "data/csv.h"

namespace rwb::data {

std::vector<CsvRecord> parseCsv(std::string_view text, const std::string &source)
{
    if (text.substr(0, 3) == "\xEF\xBB\xBF")
        text.remove_prefix(3);
    std::vector<CsvRecord> records;
    size_t line = 1;      // the line of text[i]
    size_t lineStart = 0; // where that line starts, for columns
    size_t i = 0;
    const size_t n = text.size();
    auto fail = [&](size_t atLine, const std::string &reason) {
        throw InputException({source, atLine, reason});
    };
    while (i < n) {
        // Skip empty lines between records.
        if (text[i] == '\n' || (text[i] == '\r' && i + 1 < n && text[i + 1] == '\n')) {
            i += text[i] == '\r' ? 2 : 1;
            ++line;
            lineStart = i;
            continue;
        }
        CsvRecord record;
        record.line = line;
        for (;;) {
            std::string field;
            if (i < n && text[i] == '"') {
                const size_t openedAt = line;
                ++i;
                for (;;) {
                    if (i >= n)
                        fail(openedAt, "a quoted field opened here is never closed");
                    const char c = text[i];
                    if (c == '"') {
                        if (i + 1 < n && text[i + 1] == '"') {
                            field.push_back('"');
                            i += 2;
                            continue;
                        }
                        ++i;
                        break;
                    }
                    if (c == '\n') {
                        ++line;
                        lineStart = i + 1;
                    }
                    field.push_back(c);
                    ++i;
                }
                if (i < n && text[i] != ',' && text[i] != '\n' && !(text[i] == '\r' && i + 1 < n && text[i + 1] == '\n'))
                    fail(line, "text after a closing quote at column " + std::to_string(i - lineStart + 1));
            } else {
                while (i < n && text[i] != ',' && text[i] != '\n' && !(text[i] == '\r' && i + 1 < n && text[i + 1] == '\n')) {
                    if (text[i] == '"')
                        fail(line, "a quote inside an unquoted field at column " + std::to_string(i - lineStart + 1)
                                       + " (a field holding quotes must itself be quoted, with \"\" for each)");
                    field.push_back(text[i]);
                    ++i;
                }
            }
            record.fields.push_back(std::move(field));
            if (i < n && text[i] == ',') {
                ++i;
                continue;
            }
            // End of the record: a line break or the end of the text.
            if (i < n) {
                i += text[i] == '\r' ? 2 : 1;
                ++line;
                lineStart = i;
            }
            break;
        }
        records.push_back(std::move(record));
    }
    return records;
}

} // namespace rwb::data
