#include "treewindows.h"

#include "notice.h"

#include "mctstreesource.h"
#include "storedocument.h"
#include "mctsviewer.h"
#include "preferenceannotator.h"
#include "prm/preference.h"
#include "store/runstore.h"

#include <QAction>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QSettings>
#include <QTimer>
#include <QWidget>

using namespace rwb::widgets;

TreeWindows::TreeWindows(QWidget *window, std::function<QString()> currentStore)
    : QObject(window)
    , m_window(window)
    , m_currentStore(std::move(currentStore))
    , m_openRecord(new QAction(this))
    , m_openFolder(new QAction(this))
    , m_showTrees(new QAction(this))
    , m_annotate(new QAction(this))
{
    connect(m_openRecord, &QAction::triggered, this, [this] { openSearchTreesDialog(false); });
    connect(m_openFolder, &QAction::triggered, this, [this] { openSearchTreesDialog(true); });
    m_showTrees->setObjectName(QStringLiteral("showSearchTrees"));
    connect(m_showTrees, &QAction::triggered, this, &TreeWindows::showSearchTrees);
    m_annotate->setObjectName(QStringLiteral("annotatePairs"));
    connect(m_annotate, &QAction::triggered, this, &TreeWindows::openAnnotatorDialog);
    retranslate();
}

void TreeWindows::retranslate()
{
    m_openRecord->setText(tr("Open a search tree &record…"));
    m_openFolder->setText(tr("Open a folder of search tree records…"));
    m_showTrees->setText(tr("Search &trees"));
    m_annotate->setText(tr("&Annotate preference pairs…"));
    if (m_trees)
        m_trees->setWindowTitle(treesTitle());
    if (m_annotator)
        m_annotator->setWindowTitle(tr("Preference pairs"));
}

MctsViewer *TreeWindows::searchTrees()
{
    if (!m_trees) {
        // A window of its own, closed with the main window; closing it only hides it.
        m_trees = new MctsViewer(m_window);
        m_trees->setObjectName(QStringLiteral("mctsViewer"));
        m_trees->setWindowFlag(Qt::Window);
        m_trees->setWindowTitle(tr("Search trees"));
        m_trees->resize(1500, 950);
        connect(m_trees, &MctsViewer::compareSiblings, this, [this](qint64 treeId, int a, int b) {
            const auto *source = dynamic_cast<const rwb::widgets::MctsStoreSource *>(m_trees->source().get());
            if (!source) {
                showNotice(m_window, tr("Compare siblings"), tr("Preference pairs live in a run store: open the trees from a run "
                                                  "store (File → Open run store, or --mcts store.sqlite) to annotate them."));
                return;
            }
            QString error;
            compareSiblings(source->document()->path(), treeId, a, b, &error);
        });
    }
    return m_trees;
}

PreferenceAnnotator *TreeWindows::annotator()
{
    if (!m_annotator) {
        // A window of its own, like the tree viewer's.
        m_annotator = new PreferenceAnnotator(m_window);
        m_annotator->setObjectName(QStringLiteral("preferenceAnnotator"));
        m_annotator->setWindowFlag(Qt::Window);
        m_annotator->setWindowTitle(tr("Preference pairs"));
        m_annotator->resize(1600, 950);
        const QString name = QSettings().value(QStringLiteral("annotation/annotator")).toString();
        if (!name.isEmpty())
            m_annotator->setAnnotator(name);
        connect(m_annotator, &PreferenceAnnotator::labelled, this,
                [this] { QSettings().setValue(QStringLiteral("annotation/annotator"), m_annotator->annotator()); });
    }
    return m_annotator;
}

bool TreeWindows::openAnnotator(const QString &storePath, const QString &set, QString *error)
{
    PreferenceAnnotator *a = annotator();
    const bool ok = a->open(storePath, set, error);
    a->show();
    a->raise();
    a->activateWindow();
    if (ok && a->annotator().isEmpty())
        QTimer::singleShot(0, a, [a] { a->chooseAnnotator(); });
    return ok;
}

void TreeWindows::openAnnotatorDialog()
{
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Annotate the preference pairs of a run store"),
                                                      m_currentStore(), tr("Run stores (*.sqlite *.db);;All files (*)"));
    if (path.isEmpty())
        return;
    QString set;
    try {
        QStringList sets;
        for (const auto &info : rwb::widgets::StoreDocument::get(path)->store().pairSets())
            sets << QString::fromStdString(info.name);
        if (sets.size() > 1) {
            bool ok = false;
            set = QInputDialog::getItem(m_window, tr("Pair set"), tr("The pair set to annotate:"), sets, 0, false, &ok);
            if (!ok)
                return;
        }
    } catch (const std::exception &e) {
        showNotice(m_window, tr("Annotate preference pairs"), QString::fromUtf8(e.what()));
        return;
    }
    QString error;
    openAnnotator(path, set, &error); // the view shows what went wrong
}

bool TreeWindows::compareSiblings(const QString &storePath, qint64 treeId, int nodeA, int nodeB, QString *error)
{
    const QString set = QStringLiteral("manual pairs");
    qint64 pairId = 0;
    try {
        const std::shared_ptr<rwb::widgets::StoreDocument> document = rwb::widgets::StoreDocument::get(storePath);
        rwb::store::RunStore &s = document->writable();
        std::vector<rwb::prm::StepPair> pairs{
            rwb::prm::manualPair(s.mctsTree(treeId), nodeA, nodeB, treeId, set.toStdString())};
        s.addPairs(pairs);
        std::vector<rwb::prm::Label> tree{rwb::prm::treeLabel(pairs.front(), 0.0)};
        s.setLabels(tree);
        pairId = pairs.front().id;
    } catch (const std::exception &e) {
        const QString message = tr("Cannot compare nodes %1 and %2: %3").arg(nodeA).arg(nodeB).arg(QString::fromUtf8(e.what()));
        if (error)
            *error = message;
        showNotice(m_window, tr("Compare siblings"), message);
        return false;
    }
    if (!openAnnotator(storePath, set, error))
        return false;
    return annotator()->showPair(pairId);
}

void TreeWindows::showSearchTrees()
{
    MctsViewer *viewer = searchTrees();
    viewer->show();
    viewer->raise();
    viewer->activateWindow();
}

QString TreeWindows::treesTitle() const
{
    if (m_treesPath.isEmpty())
        return tr("Search trees");
    if (m_treesRun > 0)
        return tr("Search trees — run %1 of %2").arg(m_treesRun).arg(QFileInfo(m_treesPath).fileName());
    return tr("Search trees — %1").arg(QFileInfo(m_treesPath).fileName());
}

namespace {

// A run store is an SQLite file; a record is JSON. The first 16 bytes tell them apart
// whatever the file is called.
bool isSqliteFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) && f.read(16) == QByteArray("SQLite format 3\0", 16);
}

} // namespace

bool TreeWindows::openSearchTrees(const QString &path, QString *error)
{
    if (isSqliteFile(path)) {
        qint64 run = 0;
        QString e;
        try {
            run = rwb::widgets::lastMctsRun(*rwb::widgets::StoreDocument::get(path));
            if (run == 0)
                e = tr("%1 has no tree search runs (rwb mcts run writes them).").arg(path);
        } catch (const std::exception &ex) {
            e = QString::fromUtf8(ex.what());
        }
        if (run > 0)
            return openSearchTreesRun(path, run, error);
        if (error)
            *error = e;
        showNotice(m_window, tr("Search trees"), e);
        return false;
    }
    MctsViewer *viewer = searchTrees();
    m_treesPath = path;
    m_treesRun = 0;
    viewer->setWindowTitle(treesTitle());
    const bool ok = viewer->setSource(std::make_shared<MctsFileSource>(path.toStdString()), error);
    showSearchTrees();
    return ok;
}

bool TreeWindows::openSearchTreesRun(const QString &storePath, qint64 runId, QString *error)
{
    MctsViewer *viewer = searchTrees();
    m_treesPath = storePath;
    m_treesRun = runId;
    viewer->setWindowTitle(treesTitle());
    std::shared_ptr<rwb::widgets::MctsStoreSource> source;
    QString why;
    if (std::shared_ptr<rwb::widgets::StoreDocument> document = rwb::widgets::StoreDocument::open(storePath, &why))
        source = std::make_shared<rwb::widgets::MctsStoreSource>(std::move(document), runId);
    const bool ok = source ? viewer->setSource(source, error) : false;
    if (!source && error)
        *error = why;
    // setSource read the run's status: a search still writing is followed.
    viewer->setFollow(ok && source->runStatus() == "running");
    showSearchTrees();
    return ok;
}

void TreeWindows::openSearchTreesDialog(bool folder)
{
    const QString path =
        folder ? QFileDialog::getExistingDirectory(m_window, tr("Open a folder of search tree records"))
               : QFileDialog::getOpenFileName(m_window, tr("Open a search tree record"), QString(),
                                              tr("Search tree records (*.json);;Run stores (*.sqlite *.db);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    openSearchTrees(path, &error); // the viewer shows what went wrong
}

