#include "helpactions.h"

#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QKeySequence>
#include <QMessageBox>
#include <QImage>
#include <QPixmap>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QUrl>

namespace {

// The page that marks a docs folder.
const QString kMarker = QStringLiteral("guide.md");
// How many folders above the program a checkout's docs/ may be (build/app/workbench/).
constexpr int kLevelsUp = 4;
// The widest an image of a page is shown (pixels).
constexpr int kImageWidth = 860;

QStringList candidates()
{
    QStringList dirs;
    const QString env = qEnvironmentVariable("RWB_DOCS_DIR");
    if (!env.isEmpty())
        dirs << env;
    const QDir app(QCoreApplication::applicationDirPath());
    dirs << QDir::cleanPath(app.filePath(QStringLiteral("../share/doc/reward-workbench")));
    QDir up = app;
    for (int i = 0; i < kLevelsUp && up.cdUp(); ++i)
        dirs << up.filePath(QStringLiteral("docs"));
#ifdef RWB_SOURCE_DOCS
    dirs << QStringLiteral(RWB_SOURCE_DOCS); // the checkout it was built from, wherever the build folder is
#endif
    return dirs;
}

} // namespace

HelpActions::HelpActions(QWidget *window)
    : QObject(window)
    , m_window(window)
    , m_guide(new QAction(this))
    , m_cli(new QAction(this))
{
    m_guide->setObjectName(QStringLiteral("helpUserGuide"));
    m_guide->setShortcut(QKeySequence::HelpContents);
    m_cli->setObjectName(QStringLiteral("helpCliReference"));
    auto open = [this](const QString &page) {
        QString error;
        if (!openPage(page, &error))
            QMessageBox::warning(m_window, tr("Help"), error);
    };
    connect(m_guide, &QAction::triggered, this, [open] { open(QStringLiteral("guide.md")); });
    connect(m_cli, &QAction::triggered, this, [open] { open(QStringLiteral("cli.md")); });
    retranslate();
}

QList<QAction *> HelpActions::actions() const
{
    return {m_guide, m_cli};
}

void HelpActions::retranslate()
{
    m_guide->setText(tr("&User guide"));
    m_guide->setToolTip(tr("The workbench's guide (docs/guide.md)"));
    m_cli->setText(tr("&CLI reference"));
    m_cli->setToolTip(tr("Every rwb command and its options (docs/cli.md)"));
    if (m_browser)
        m_browser->setWindowTitle(tr("Reward Workbench documentation"));
}

QTextBrowser *HelpActions::browser() const
{
    return m_browser;
}

QString HelpActions::docsDir()
{
    for (const QString &dir : candidates())
        if (QFileInfo::exists(QDir(dir).filePath(kMarker)))
            return QDir(dir).absolutePath();
    return {};
}

void HelpActions::fitImages()
{
    // Screenshots are 1600 px wide: shown at most kImageWidth wide, so the text's width rules.
    QTextDocument *doc = m_browser->document();
    QTextCursor cursor(doc);
    for (QTextBlock block = doc->begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            if (!fragment.isValid() || !fragment.charFormat().isImageFormat())
                continue;
            QTextImageFormat image = fragment.charFormat().toImageFormat();
            const QVariant data = doc->resource(QTextDocument::ImageResource, QUrl(image.name()));
            const QSize size = data.value<QImage>().isNull() ? data.value<QPixmap>().size() : data.value<QImage>().size();
            if (size.width() <= kImageWidth || size.isEmpty())
                continue;
            image.setWidth(kImageWidth);
            image.setHeight(static_cast<double>(kImageWidth) * size.height() / size.width());
            cursor.setPosition(fragment.position());
            cursor.setPosition(fragment.position() + fragment.length(), QTextCursor::KeepAnchor);
            cursor.setCharFormat(image);
        }
    }
}

bool HelpActions::openPage(const QString &page, QString *error)
{
    const QString dir = docsDir();
    const QString path = dir.isEmpty() ? QString() : QDir(dir).filePath(page);
    if (path.isEmpty() || !QFileInfo::exists(path)) {
        QStringList looked;
        for (const QString &d : candidates())
            looked << QDir::toNativeSeparators(QDir::cleanPath(d));
        if (error)
            *error = tr("The documentation page %1 was not found. Looked in:\n%2\n\nSet RWB_DOCS_DIR to the docs folder "
                        "of a checkout.")
                         .arg(page, looked.join(QLatin1Char('\n')));
        return false;
    }
    if (!m_browser) {
        // A window of its own, closed with the main window; links to other pages open in it.
        m_browser = new QTextBrowser(m_window);
        m_browser->setObjectName(QStringLiteral("helpBrowser"));
        m_browser->setWindowFlag(Qt::Window);
        m_browser->setOpenLinks(true);
        m_browser->setOpenExternalLinks(true);
        m_browser->resize(900, 1000);
        retranslate();
    }
    m_browser->setSource(QUrl::fromLocalFile(path), QTextDocument::MarkdownResource);
    fitImages();
    m_browser->show();
    m_browser->raise();
    m_browser->activateWindow();
    return true;
}
