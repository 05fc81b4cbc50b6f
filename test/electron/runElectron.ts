console.log('npm run test:electron: not built yet');
