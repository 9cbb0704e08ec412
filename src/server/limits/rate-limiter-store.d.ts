// rate-limiter-flexible ships its store base class but exports it only as a type; the class
// itself is reached by its file path (the package has no "exports" map).
declare module 'rate-limiter-flexible/lib/RateLimiterStoreAbstract.js' {
  import { RateLimiterStoreAbstract } from 'rate-limiter-flexible';
  export default RateLimiterStoreAbstract;
}
