import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { RenderGuard } from './components/RenderGuard';
import { WindowProblem } from './components/WindowProblem';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <RenderGuard fallback={<WindowProblem />}>
      <App />
    </RenderGuard>
  </StrictMode>,
);
