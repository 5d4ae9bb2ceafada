export { CatalogCache, erasIn, type CachedCatalog, type CachedList, type CatalogCacheOptions, type StartListing } from './catalog-cache.js';
export { catalogCacheKey } from './catalog-cache-key.js';
