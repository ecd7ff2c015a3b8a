#pragma once

#include <stdexcept>
#include <string>

namespace rwb::store {

// Thrown by the run store for anything SQLite refuses: the file cannot be opened, it is
// not a run store or comes from a newer version, a statement fails, the disk is full.
// what() reads "<file>: <context>: <SQLite's message>" so a user can act on it.
class StoreError : public std::runtime_error {
public:
    StoreError(std::string path, const std::string &context, std::string sqliteMessage = {});

    const std::string &path() const { return m_path; }
    const std::string &sqliteMessage() const { return m_sqliteMessage; }

private:
    std::string m_path;
    std::string m_sqliteMessage;
};

} // namespace rwb::store
