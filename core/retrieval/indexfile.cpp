#include "retrieval/indexfile.h"

#include "data/jsonl.h"
#include "sqlite/error.h"

namespace rwb::retrieval {

namespace {

sqlite::Connection::Options indexOptions()
{
    sqlite::Connection::Options o;
    o.busyTimeoutMs = 5000;
    o.shared = true;
    return o;
}

} // namespace

IndexFile::IndexFile(const std::string &path, Mode mode)
try : sqlite::Connection(path, mode, indexOptions()) {
} catch (const sqlite::Error &e) {
    throw data::InputException({path, 0, "cannot open: " + e.sqliteMessage()});
}

} // namespace rwb::retrieval
