#pragma once

#include "sqlite/connection.h"

#include <string>

namespace rwb::retrieval {

// A retrieval index file (BM25's tables, the dense vectors) as a SQLite connection.
// Internal to core/retrieval: public headers only forward-declare it. A file that does
// not open (a missing index) throws data::InputException naming it; any later failure
// sqlite::Error. Opened shared: several threads may each prepare and run their own
// statements on it.
class IndexFile : public sqlite::Connection {
public:
    IndexFile(const std::string &path, Mode mode);
};

} // namespace rwb::retrieval
