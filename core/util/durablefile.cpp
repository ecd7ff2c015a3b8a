#include "util/durablefile.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace rwb::util {

namespace {

std::runtime_error failure(const std::string &path, const std::string &what)
{
    return std::runtime_error(path + ": " + what + ": " + std::strerror(errno));
}

} // namespace

void writeAll(int fd, const void *data, size_t size, const std::string &path)
{
    constexpr size_t kChunk = size_t(1) << 30;
    const auto *p = static_cast<const char *>(data);
    while (size > 0) {
        const ssize_t n = ::write(fd, p, std::min(size, kChunk));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            throw failure(path, "write failed");
        p += n;
        size -= static_cast<size_t>(n);
    }
}

int createTemporaryBeside(const std::string &path, std::string &tmp)
{
    static std::atomic<unsigned> counter{0};
    for (int attempt = 0;; ++attempt) {
        tmp = path + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
        const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0)
            return fd;
        if (errno != EEXIST || attempt >= 100)
            throw failure(path, "cannot create " + tmp);
    }
}

void writeFileDurably(const std::string &path, std::string_view bytes)
{
    std::string tmp;
    int fd = createTemporaryBeside(path, tmp);
    try {
        writeAll(fd, bytes.data(), bytes.size(), path);
        if (::fsync(fd) != 0)
            throw failure(path, "fsync failed");
        const int closed = ::close(fd);
        fd = -1;
        if (closed != 0)
            throw failure(path, "close failed");
        if (::rename(tmp.c_str(), path.c_str()) != 0)
            throw failure(path, "cannot rename " + tmp + " to it");
    } catch (...) {
        if (fd >= 0)
            ::close(fd);
        ::unlink(tmp.c_str());
        throw;
    }
    syncFolder(std::filesystem::path(path).parent_path().string());
}

void syncFolder(const std::string &folder)
{
    const int fd = ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

} // namespace rwb::util
