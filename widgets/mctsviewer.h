#pragma once

#include "mctstreeview.h"

#include <QString>
#include <QWidget>

#include <map>
#include <memory>
#include <vector>

class QAction;
class QCheckBox;
class QLabel;
class QLineEdit;
class QSlider;
class QSplitter;
class QTableView;
class QTimer;
class QToolButton;

namespace rwb::train {
class ProcessRewardModel;
}

namespace rwb::widgets {

class MctsNodeDetail;
class MctsSiblingsView;
class MctsTreeFilter;
class MctsTreeListModel;
class MctsTreeSource;

// The MCTS tree viewer: the trees of a source on the left (MctsTreeListModel, sortable,
// filtered by a text and "wrong only"), the selected tree in the middle (MctsTreeView)
// with the node detail on its right (MctsNodeDetail) and the selected node's siblings
// side by side under both (MctsSiblingsView). Above the tree: the question, the replay
// slider with the iteration's selection, expansion and back-up spelled out, a search over
// the nodes' texts (matches marked; Enter / F3 jumps to the next), zoom and export.
//
// ← / → step through the iterations (Home / End: the first and the last) wherever the
// focus is in the viewer but in a text field. "Follow" polls the source once a second:
// new trees appear in the list, when the shown tree has gained iterations it is read
// again and shows its last one, and when it was the newest tree and a newer one appeared
// (a search going on to the next question) the viewer moves on to that one.
//
// The source is called on the GUI thread (a record of thousands of nodes reads in tens of
// milliseconds); its exceptions are shown in the red line above the list, naming the
// file and place, and what was shown stays. GUI thread only.
class MctsViewer : public QWidget {
    Q_OBJECT
public:
    explicit MctsViewer(QWidget *parent = nullptr);
    ~MctsViewer() override;

    // Lists the trees of `source` (null: none) and shows the first. On failure returns
    // false with the source's message in `error` (also shown in the viewer).
    bool setSource(std::shared_ptr<MctsTreeSource> source, QString *error = nullptr);
    std::shared_ptr<MctsTreeSource> source() const { return m_source; }
    // Reads tree `treeId` and shows it at its last iteration, selecting its row.
    bool showTree(qint64 treeId, QString *error = nullptr);
    qint64 currentTreeId() const { return m_treeId; }

    bool follow() const;
    void setFollow(bool follow);
    // How often Follow polls the source (default 1 s).
    void setPollInterval(int ms);

    MctsTreeListModel *model() const { return m_model; }
    MctsTreeFilter *filter() const { return m_filter; }
    QTableView *table() const { return m_table; }
    MctsTreeView *view() const { return m_view; }
    MctsNodeDetail *detail() const { return m_detail; }
    MctsSiblingsView *siblings() const { return m_siblings; }
    QSlider *slider() const { return m_slider; }
    QLineEdit *filterEdit() const { return m_filterEdit; }
    QCheckBox *wrongOnlyBox() const { return m_wrongOnly; }
    QCheckBox *followBox() const { return m_follow; }
    QLineEdit *searchEdit() const { return m_search; }
    QLabel *searchCountLabel() const { return m_searchCount; }
    QLabel *errorLabel() const { return m_error; }
    QLabel *infoLabel() const { return m_info; }
    QLabel *questionLabel() const { return m_question; }
    // The nodes of the iteration shown whose texts hold the search text, in id order.
    const std::vector<int> &searchMatches() const { return m_matches; }

    // Scores the steps of every tree shown with a process reward model (rwb prm train's
    // folder; "" turns it off): the node detail and the siblings show R beside Q. The
    // trees are scored on the GUI thread when shown (one forward per leaf: a fraction of a
    // second for the demo's trees). On failure returns false with the message.
    bool setProcessRewardModel(const QString &folder, QString *error = nullptr);
    const std::map<int, double> &prmScores() const { return m_prmScores; }
    QToolButton *prmButton() const { return m_prmButton; }

    // The info line's text for iteration `i` of `record` (for the bench and tests).
    static QString iterationText(const mcts::SearchRecord &record, int i);

public Q_SLOTS:
    // Reads the source's list again (Follow does it on its timer). Returns false when the
    // source failed (the message is shown; the list stays).
    bool refresh();
    void setIteration(int iteration);
    void stepIteration(int delta);
    void selectNode(int id);
    // Runs the search box's text now (typing runs it after a short pause).
    void runSearch();
    void findNext();
    void findPrevious();
    // Asks for a file name and exports the view (File dialog; the view's exportImage does
    // the work).
    void exportDialog(MctsTreeView::ExportScope scope, bool svg);

Q_SIGNALS:
    void treeShown(qint64 treeId);
    // The siblings panel's "compare with": two sibling steps of the tree shown, to be
    // annotated as a preference pair (the main window adds the pair and opens the
    // annotation view).
    void compareSiblings(qint64 treeId, int nodeA, int nodeB);

protected:
    void changeEvent(QEvent *event) override;

private:
    void buildUi();
    void retranslate();
    void showError(const QString &message);
    void clearError();
    void currentRowChanged();
    void iterationShown(int iteration);
    void nodeShown(int id);
    void updateQuestion();
    void updateProblems();
    void selectTreeRow(qint64 treeId);
    void jumpToMatch(int step);

    void scoreWithPrm();

    std::shared_ptr<MctsTreeSource> m_source;
    std::shared_ptr<train::ProcessRewardModel> m_prm; // null: no PRM scores
    QString m_prmFolder;
    std::map<int, double> m_prmScores;                // the tree shown's
    QToolButton *m_prmButton = nullptr;
    std::shared_ptr<const mcts::SearchRecord> m_record;
    qint64 m_treeId = -1;
    std::vector<QString> m_nodeText; // per node of the record, for the search (made on first use)
    std::vector<int> m_matches;
    int m_matchIndex = -1;
    bool m_listError = false; // the error shown is the list's (a later good read clears it)
    bool m_selectingRow = false;

    MctsTreeListModel *m_model = nullptr;
    MctsTreeFilter *m_filter = nullptr;
    QLabel *m_error = nullptr;
    QLabel *m_problems = nullptr;
    QLineEdit *m_filterEdit = nullptr;
    QCheckBox *m_wrongOnly = nullptr;
    QTableView *m_table = nullptr;
    QLabel *m_question = nullptr;
    QToolButton *m_first = nullptr, *m_previous = nullptr, *m_next = nullptr, *m_last = nullptr;
    QSlider *m_slider = nullptr;
    QLabel *m_iterationLabel = nullptr;
    QCheckBox *m_follow = nullptr;
    QLabel *m_info = nullptr;
    QLineEdit *m_search = nullptr;
    QLabel *m_searchCount = nullptr;
    QToolButton *m_zoomOut = nullptr, *m_zoomIn = nullptr, *m_fit = nullptr, *m_export = nullptr;
    MctsTreeView *m_view = nullptr;
    MctsNodeDetail *m_detail = nullptr;
    MctsSiblingsView *m_siblings = nullptr;
    QSplitter *m_splitter = nullptr;
    QTimer *m_poll = nullptr;
    QTimer *m_searchDebounce = nullptr;
    QAction *m_exportVisiblePng = nullptr, *m_exportWholePng = nullptr, *m_exportVisibleSvg = nullptr,
            *m_exportWholeSvg = nullptr;
};

} // namespace rwb::widgets
