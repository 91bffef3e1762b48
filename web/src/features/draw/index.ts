export { DrawPage } from './components/draw-page';
