#include "outputfolder.h"

#include <QDir>
#include <QFileInfo>

namespace rwb::widgets {

namespace {
bool isFree(const QString &path)
{
    const QFileInfo info(path);
    if (!info.exists())
        return true;
    return info.isDir() && QDir(path).isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System);
}
} // namespace

QString freshOutputFolder(const QString &output)
{
    if (output.isEmpty() || isFree(output))
        return output;
    const QString base = QDir::cleanPath(output);
    for (int n = 2;; ++n) {
        const QString candidate = QStringLiteral("%1-%2").arg(base).arg(n);
        if (isFree(candidate))
            return candidate;
    }
}

} // namespace rwb::widgets
