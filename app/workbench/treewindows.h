#pragma once

#include <QObject>
#include <QString>

#include <functional>

class QAction;
class QWidget;

namespace rwb::widgets {
class MctsViewer;
class PreferenceAnnotator;
} // namespace rwb::widgets

// The workbench's two windows beside the main one: the MCTS tree viewer (a search tree
// wants the whole screen) and the annotation view of preference pairs, with the actions
// that open them (File → Open a search tree record / folder, Annotate preference pairs;
// View → Search trees). Each window is made on first use, closed with the main window,
// and hidden when closed. GUI thread only.
class TreeWindows : public QObject {
    Q_OBJECT
public:
    // `window` parents the windows and the dialogs; `currentStore` gives the store of the
    // run shown (where the annotate dialog starts).
    TreeWindows(QWidget *window, std::function<QString()> currentStore);

    QAction *openRecordAction() const { return m_openRecord; }
    QAction *openFolderAction() const { return m_openFolder; }
    QAction *showTreesAction() const { return m_showTrees; }
    QAction *annotateAction() const { return m_annotate; }
    void retranslate();

    rwb::widgets::MctsViewer *searchTrees();
    rwb::widgets::PreferenceAnnotator *annotator();
    // Shows the search records of `path` (a record file, a folder of them, or a run store:
    // its last MCTS run). On failure the window still opens, with the message naming the
    // file and place, which `error` gets too.
    bool openSearchTrees(const QString &path, QString *error);
    // The trees of MCTS run `runId` of a store; a run still searching is followed.
    bool openSearchTreesRun(const QString &storePath, qint64 runId, QString *error);
    // Pair set `set` of a store (the first when empty) in the annotation window.
    bool openAnnotator(const QString &storePath, const QString &set, QString *error);
    // A pair of sibling steps of a stored tree: added to the set "manual pairs" of the
    // store when new, then shown for annotation.
    bool compareSiblings(const QString &storePath, qint64 treeId, int nodeA, int nodeB, QString *error);

private:
    void openSearchTreesDialog(bool folder);
    void openAnnotatorDialog();
    void showSearchTrees();
    QString treesTitle() const;

    QWidget *m_window;
    std::function<QString()> m_currentStore;
    rwb::widgets::MctsViewer *m_trees = nullptr;
    rwb::widgets::PreferenceAnnotator *m_annotator = nullptr;
    QString m_treesPath; // what the tree viewer shows
    qint64 m_treesRun = 0; // its run, when it shows a store's
    QAction *m_openRecord;
    QAction *m_openFolder;
    QAction *m_showTrees;
    QAction *m_annotate;
};
