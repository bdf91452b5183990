// The help centre's and banners' pages behind one lazy import: the router's entry then carries one
// list of their preloads instead of three (the home page's first load includes that entry).
export { BannerDetailPage } from "./banner-detail-page.tsx";
export { HelpArticlePage } from "./help-article-page.tsx";
export { HelpCentrePage } from "./help-centre-page.tsx";
