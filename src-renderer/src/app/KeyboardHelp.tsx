import { Dialog } from '../components/Dialog';
import { ROUTES } from './routes';

export function KeyboardHelp({ open, onClose }: { readonly open: boolean; readonly onClose: () => void }) {
  return (
    <Dialog open={open} title="Keyboard shortcuts" onClose={onClose}>
      <table className="table">
        <tbody>
          {ROUTES.map((r) => (
            <tr key={r.screen}>
              <td>Go to {r.label}</td>
              <td>
                <kbd>g</kbd> <kbd>{r.key}</kbd>
              </td>
            </tr>
          ))}
          <tr>
            <td>New post</td>
            <td>
              <kbd>n</kbd>
            </td>
          </tr>
          <tr>
            <td>Move within the sidebar</td>
            <td>
              <kbd>↑</kbd> <kbd>↓</kbd>
            </td>
          </tr>
          <tr>
            <td>Close a dialog</td>
            <td>
              <kbd>Esc</kbd>
            </td>
          </tr>
          <tr>
            <td>Show this list</td>
            <td>
              <kbd>?</kbd>
            </td>
          </tr>
        </tbody>
      </table>
    </Dialog>
  );
}
